"""Calls every SOAP operation of the given ASMX endpoints with zeep, over SOAP 1.1 and SOAP 1.2.

Usage: zeep-client.py BASE_URL ENDPOINT_PATH...
Prints one JSON line per call: endpoint, operation, version, ok, and result or error.
The operations are discovered from each live WSDL, never listed here.
With SERVICE_USER and SERVICE_SECRET set it sends them as a caller's credentials: HTTP Basic, or
with SERVICE_WS_SECURITY=digest a WS-Security UsernameToken with a PasswordDigest.
"""
import json
import os
import sys
from urllib.parse import urlparse

import requests
import zeep
from zeep.wsdl.bindings import Soap11Binding, Soap12Binding
from zeep.wsse.username import UsernameToken

VERSION_OF_BINDING = {Soap11Binding: "1.1", Soap12Binding: "1.2"}
# Sample values by XML Schema type; the service only needs well-typed arguments. A parameter
# whose rules need a particular form (a phone number, a registered school) gets the value of the
# environment variable SAMPLE_<name>, which the test sets.
SAMPLE_BY_TYPE = {"string": "1", "int": 1}


def sample_arguments(operation):
    """Keyword arguments for a document/literal wrapped operation: one per child of the wrapper."""
    return {
        name: os.environ.get(f"SAMPLE_{name}", SAMPLE_BY_TYPE[element.type.qname.localname])
        for name, element in operation.input.body.type.elements
    }


def call(proxy, operation):
    """Calls one operation; a fault or transport error is reported, not raised, so every call runs."""
    try:
        result = getattr(proxy, operation.name)(**sample_arguments(operation))
        return {"ok": True, "result": result}
    except Exception as error:  # the report names the failure; the test decides
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def client_options():
    """The caller's credentials, the way zeep sends them: a session with Basic auth, or a WS-Security header."""
    user, secret = os.environ.get("SERVICE_USER"), os.environ.get("SERVICE_SECRET")
    if not user:
        return {}
    if os.environ.get("SERVICE_WS_SECURITY") == "digest":
        return {"wsse": UsernameToken(user, secret, use_digest=True)}
    session = requests.Session()
    session.auth = requests.auth.HTTPBasicAuth(user, secret)
    return {"transport": zeep.Transport(session=session)}


def main(base_url, endpoint_paths):
    options = client_options()
    for path in endpoint_paths:
        client = zeep.Client(f"{base_url}{path}?WSDL", **options)
        for service in client.wsdl.services.values():
            for port in service.ports.values():
                version = VERSION_OF_BINDING.get(type(port.binding))
                if version is None:  # the HTTP GET and POST ports are not SOAP
                    continue
                proxy = client.bind(service.name, port.name)
                endpoint = urlparse(port.binding_options["address"]).path
                for operation in port.binding.all().values():
                    report = {"endpoint": endpoint, "operation": operation.name, "version": version}
                    print(json.dumps({**report, **call(proxy, operation)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

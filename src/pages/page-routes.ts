import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog, Endpoint } from '../contract/catalog';
import type { Config } from '../config/service-config';
import { baseUrlFor } from '../wire/base-url';
import { send } from '../wire/send';
import { clientAddress } from '../lib/networks';
import { methodNotFoundPage, operationHelpPage, serviceHelpPage, type TestFormShown } from './help-pages';
import { discoDocument, ServiceDescription } from './service-description';

const XML = 'text/xml; charset=utf-8';
const HTML = 'text/html; charset=utf-8';

/** GET /X.asmx: ?WSDL and ?disco (any case), ?op=Name, or the service's help page. */
export class PageRoutes {
  private readonly descriptions = new Map<Endpoint, ServiceDescription>();

  constructor(
    catalog: Catalog,
    private readonly config: Config,
  ) {
    for (const endpoint of catalog.endpoints) {
      this.descriptions.set(
        endpoint,
        new ServiceDescription(endpoint.wsdlText[config.contract], endpoint.path, config.serviceNamespace),
      );
    }
  }

  /** TEST_FORMS: the form for local callers only (ASMX's default), for all, or for none. */
  private testFormFor(request: IncomingMessage): TestFormShown {
    const { testForms, localNetworks, trustedProxies } = this.config.access;
    if (testForms !== 'local') return testForms === 'all' ? 'form' : 'off';
    const address = clientAddress(
      request.socket.remoteAddress ?? '',
      request.headers['x-forwarded-for'],
      trustedProxies,
    );
    return localNetworks.contains(address) ? 'form' : 'local-only';
  }

  handle(request: IncomingMessage, response: ServerResponse, endpoint: Endpoint, query: string): void {
    const { config } = this;
    const baseUrl = baseUrlFor(request.headers.host, config);
    const fields = new URLSearchParams(query);
    const keys = new Set([...fields.keys()].map((key) => key.toLowerCase()));
    const namespace = config.serviceNamespace;
    if (keys.has('wsdl')) {
      send(response, 200, XML, (this.descriptions.get(endpoint) as ServiceDescription).render(baseUrl));
    } else if (keys.has('disco')) {
      send(response, 200, XML, discoDocument(endpoint, namespace, baseUrl));
    } else if (fields.has('op')) {
      const name = fields.get('op') ?? '';
      const operation = endpoint.operations.find((candidate) => candidate.name === name);
      send(
        response,
        200,
        HTML,
        operation
          ? operationHelpPage(endpoint, operation, config.contract, namespace, baseUrl, this.testFormFor(request))
          : methodNotFoundPage(endpoint, name),
      );
    } else {
      send(response, 200, HTML, serviceHelpPage(endpoint, namespace, baseUrl));
    }
  }
}

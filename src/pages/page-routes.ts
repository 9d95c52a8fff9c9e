import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog, Endpoint } from '../contract/catalog';
import type { Config } from '../config/service-config';
import { baseUrlFor, type PublicAddress } from '../wire/base-url';
import { FormFields } from '../wire/form-fields';
import { send } from '../wire/send';
import { isLocalCaller } from './local-caller';
import { methodNotFoundPage, operationHelpPage, serviceHelpPage, type TestFormShown } from './help-pages';
import { discoDocument, ServiceDescription } from './service-description';

const XML = 'text/xml; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

/**
 * GET /X.asmx: ?WSDL and ?disco (any case), ?op=Name, or the service's help page. As in ASMX's
 * discovery protocol, ?schema=id and ?wsdl=id ask for a schema or description by id: the WSDL
 * holds its schema and has no other description, so any id is not found.
 */
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
    const { testForms } = this.config.access;
    if (testForms !== 'local') return testForms === 'all' ? 'form' : 'off';
    return isLocalCaller(request, this.config.access) ? 'form' : 'local-only';
  }

  /** `address`: where the school that is asked is reached, which its WSDL, DISCO and pages name. */
  handle(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    query: string,
    address: PublicAddress,
  ): void {
    const { config } = this;
    const baseUrl = baseUrlFor(request.headers.host, address);
    const fields = new FormFields(query);
    // ?WSDL and ?disco are values without a name; ?wsdl= names an id.
    const bare = fields.get(null)?.toLowerCase();
    const namespace = config.serviceNamespace;
    const operationName = fields.get('op');
    if (fields.get('schema') !== undefined) {
      send(response, 500, TEXT, 'Schema not found.\r\n');
    } else if (fields.get('wsdl') !== undefined) {
      send(response, 500, TEXT, 'XML Web service description was not found.\r\n');
    } else if (bare === 'wsdl') {
      send(response, 200, XML, (this.descriptions.get(endpoint) as ServiceDescription).render(baseUrl));
    } else if (bare === 'disco') {
      send(response, 200, XML, discoDocument(endpoint, namespace, baseUrl));
    } else if (operationName !== undefined) {
      const operation = endpoint.operations.find((candidate) => candidate.name === operationName);
      send(
        response,
        200,
        HTML,
        operation
          ? operationHelpPage(endpoint, operation, config.contract, namespace, baseUrl, this.testFormFor(request))
          : methodNotFoundPage(endpoint, operationName),
      );
    } else {
      send(response, 200, HTML, serviceHelpPage(endpoint, namespace, baseUrl));
    }
  }
}

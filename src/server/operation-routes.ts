import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Catalog, Endpoint } from '../contract/catalog';
import { HttpBinding } from '../bindings/http/http-binding';
import { JsonBinding } from '../bindings/json/json-binding';
import { exceptionPage, NO_SCRIPT_SERVICE, UNRECOGNIZED_FORMAT } from '../pages/error-page';
import { parseContentType } from '../wire/content-type';
import { send } from '../wire/send';
import { failRequest } from './fail-request';
import type { ServiceParts } from './service-parts';

const ASMX_PATH = /^(\/[^/]+\.asmx)(?:\/(.*))?$/;
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json';
/** The path of ASP.NET's script proxy for a service (and its debug version). */
const SCRIPT_PROXY = new Set(['js', 'jsdebug']);

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Routes the requests to an endpoint's paths that are not SOAP calls: a method ASMX does not take
 * is refused, and an operation call (/X.asmx/Op by GET, POST form or POST JSON) goes to the HTTP
 * or JSON binding on the bare node:http request, as SOAP calls do. Express's request and response
 * wrapping cost more than the bindings' own work, and these calls need none of it; the pages stay
 * with Express.
 */
export class OperationRoutes {
  private readonly http: HttpBinding;
  private readonly json: JsonBinding;
  private readonly catalog: Catalog;

  constructor({ config, catalog, pipeline }: ServiceParts) {
    this.http = new HttpBinding(config, pipeline);
    this.json = new JsonBinding(pipeline, config.budgets);
    this.catalog = catalog;
  }

  /** Whether the request was taken (answered or being answered); if not, it is for a page or no endpoint. */
  route(request: IncomingMessage, response: ServerResponse, path: string, query: string): boolean {
    const match = ASMX_PATH.exec(path);
    const endpoint = match ? this.catalog.endpointByPath(match[1]) : undefined;
    if (!match || !endpoint) return false;
    // ASMX's protocols take GET and POST only; HEAD included, anything else finds none of them.
    if (request.method !== 'GET' && request.method !== 'POST') {
      response.setHeader('Allow', 'GET, POST');
      send(response, 405, HTML, exceptionPage(UNRECOGNIZED_FORMAT));
      return true;
    }
    const operationPart = match[2];
    if (operationPart === undefined) return false;
    if (SCRIPT_PROXY.has(operationPart)) {
      send(response, 500, HTML, exceptionPage(NO_SCRIPT_SERVICE));
      return true;
    }
    this.call(request, response, endpoint, operationPart, query).catch((error: unknown) =>
      failRequest(response, error, request),
    );
    return true;
  }

  private async call(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    operationPart: string,
    query: string,
  ): Promise<void> {
    const operationName = decodeURIComponentSafe(operationPart);
    const operation = endpoint.operations.find((candidate) => candidate.name === operationName);
    const json = request.method === 'POST' && parseContentType(request.headers['content-type']).mediaType === JSON_TYPE;
    // An unknown method name is answered by the HTTP binding, in ASMX's text, whatever the body.
    if (operation && json) return this.json.handle(request, response, operation);
    return this.http.handle(request, response, { endpoint, operationName, query });
  }
}

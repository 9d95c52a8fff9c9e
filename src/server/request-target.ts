import type { HttpRequest } from '../bindings/http/http-binding';
import type { Catalog, Endpoint, Operation } from '../contract/catalog';
import { parseContentType } from '../wire/content-type';
import { OPERATOR_PATHS } from './operator-routes';

/**
 * Where a request goes, decided once from its method, path and Content-Type: the one place the
 * path is parsed and the operation in it resolved. The server dispatches on `kind`; the request
 * record's endpoint (what the access log and the figures call it) is `endpointPath`, bounded to the
 * catalog's paths and the operator's.
 */
export type RequestTarget =
  /** POST /X.asmx: the SOAP binding. */
  | { readonly kind: 'soap'; readonly endpointPath: string; readonly endpoint: Endpoint }
  /** /X.asmx/Op by GET, or POST with a form: the HTTP binding (an unknown name is its to answer). */
  | HttpTarget
  /** POST /X.asmx/Op with a JSON body, to an operation the endpoint has: the JSON binding. */
  | { readonly kind: 'json'; readonly endpointPath: string; readonly operation: Operation }
  /** /oauth/token and everything under /ims/oneroster/: the OneRoster provider. */
  | { readonly kind: 'oneroster'; readonly endpointPath: string }
  /** /healthz, /readyz, /metrics, /status, /status.json. */
  | { readonly kind: 'operator'; readonly endpointPath: string }
  /** An endpoint's path by a method ASMX's protocols do not take (405). */
  | { readonly kind: 'method-not-allowed'; readonly endpointPath: string }
  /** /X.asmx/js or /jsdebug: ASP.NET's script proxy, which ASMX does not serve here (500). */
  | { readonly kind: 'script-proxy'; readonly endpointPath: string }
  /** Everything else, for Express: the endpoint's pages (GET /X.asmx?…), the index, the 404 page. */
  | PageTarget;

/** An operation call for the HTTP binding: what it needs of the request, resolved here. */
export interface HttpTarget extends HttpRequest {
  readonly kind: 'http';
  readonly endpointPath: string;
}

/** A page, resolved as far as Express needs it: the pages never parse the path again. */
export interface PageTarget {
  readonly kind: 'page';
  readonly endpointPath: string;
  /** The request's path, without its query. */
  readonly path: string;
  /** The endpoint whose pages are asked for (GET /X.asmx?…); undefined for any other path (the index, 404). */
  readonly endpoint: Endpoint | undefined;
  /** What follows the `?`, undecoded ('' without one): which of the endpoint's pages. */
  readonly query: string;
}

const TOKEN_TARGET: RequestTarget = { kind: 'oneroster', endpointPath: '/oauth/token' };
const ONEROSTER_TARGET: RequestTarget = { kind: 'oneroster', endpointPath: '/ims/oneroster' };

/** The provider's target of a path, or undefined: its figures are counted under two paths, whatever the rest. */
function oneRosterTarget(path: string): RequestTarget | undefined {
  if (path === '/oauth/token') return TOKEN_TARGET;
  return path.startsWith('/ims/oneroster/') ? ONEROSTER_TARGET : undefined;
}

const ASMX_PATH = /^(\/[^/]+\.asmx)(?:\/(.*))?$/;
const JSON_TYPE = 'application/json';
/** The path of ASP.NET's script proxy for a service (and its debug version). */
const SCRIPT_PROXY = new Set(['js', 'jsdebug']);
const OTHER = 'other';

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Resolves requests to their targets. The targets of SOAP calls and of the operator's endpoints
 * are made once, so that resolving the hot path allocates nothing but the path's string.
 */
export class RequestRouter {
  private readonly soapTargets = new Map<string, RequestTarget>();
  private readonly operatorTargets = new Map<string, RequestTarget>();

  constructor(private readonly catalog: Catalog) {
    for (const endpoint of catalog.endpoints) {
      this.soapTargets.set(endpoint.path, { kind: 'soap', endpointPath: endpoint.path, endpoint });
    }
    for (const path of OPERATOR_PATHS) this.operatorTargets.set(path, { kind: 'operator', endpointPath: path });
  }

  resolve(method: string | undefined, url: string, contentType: string | undefined): RequestTarget {
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    if (method === 'POST') {
      const soap = this.soapTargets.get(path);
      if (soap) return soap;
    }
    const operator = this.operatorTargets.get(path);
    if (operator) return operator;
    const oneRoster = oneRosterTarget(path);
    if (oneRoster) return oneRoster;
    const match = ASMX_PATH.exec(path);
    const endpoint = match ? this.catalog.endpointByPath(match[1]) : undefined;
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    if (!match || !endpoint) {
      return { kind: 'page', endpointPath: this.endpointOfPage(path), path, endpoint: undefined, query };
    }
    const endpointPath = endpoint.path;
    // ASMX's protocols take GET and POST only; HEAD included, anything else finds none of them.
    if (method !== 'GET' && method !== 'POST') return { kind: 'method-not-allowed', endpointPath };
    const operationPart = match[2];
    if (operationPart === undefined) return { kind: 'page', endpointPath, path, endpoint, query };
    if (SCRIPT_PROXY.has(operationPart)) return { kind: 'script-proxy', endpointPath };
    const operationName = decodeURIComponentSafe(operationPart);
    const operation = endpoint.operations.find((candidate) => candidate.name === operationName);
    // An unknown method name is answered by the HTTP binding, in ASMX's text, whatever the body.
    if (operation && method === 'POST' && parseContentType(contentType).mediaType === JSON_TYPE) {
      return { kind: 'json', endpointPath, operation };
    }
    return { kind: 'http', endpointPath, endpoint, operationName, operation, query };
  }

  /** The endpoint a page's path belongs to: the catalog's path of its first segment, or 'other'. */
  private endpointOfPage(path: string): string {
    const slash = path.indexOf('/', 1);
    return this.catalog.endpointByPath(slash === -1 ? path : path.slice(0, slash))?.path ?? OTHER;
  }
}

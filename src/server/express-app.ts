import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { Config } from '../config/service-config';
import type { Catalog } from '../contract/catalog';
import { notFoundPage } from '../pages/error-page';
import { indexPage } from '../pages/index-page';
import { isLocalCaller } from '../pages/local-caller';
import { PageRoutes } from '../pages/page-routes';
import { serviceVersion } from '../lib/package-info';
import type { PublicAddress } from '../wire/base-url';
import { send } from '../wire/send';
import { failRequest } from './fail-request';
import type { PageTarget } from './request-target';

const HTML = 'text/html; charset=utf-8';

/**
 * Serves a page whose target the server resolved: the pages take it and parse no path. `address`
 * is where the school asked is reached, so that one page server serves every school of a district.
 */
export type PageServer = (
  request: IncomingMessage,
  response: ServerResponse,
  target: PageTarget,
  address: PublicAddress,
) => void;

/** What a page request was resolved to, and the address of the school it asks. */
interface PageRequest {
  readonly target: PageTarget;
  readonly address: PublicAddress;
}

/**
 * The Express application behind the pages (GET /X.asmx with ?WSDL, ?disco, ?op= or nothing) and
 * the 404 page. The server has taken every other request to an endpoint before: SOAP calls,
 * operation calls and refused methods (see request-target.ts), and it hands each page request
 * over with its target, resolved there.
 */
export function createPageServer(config: Config, catalog: Catalog): PageServer {
  const pages = new PageRoutes(catalog, config);
  const requests = new WeakMap<IncomingMessage, PageRequest>();
  const requestOf = (request: IncomingMessage) => requests.get(request) as PageRequest;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((request, response, next) => {
    const { target, address } = requestOf(request);
    if (!target.endpoint) {
      next();
      return;
    }
    pages.handle(request, response, target.endpoint, target.query, address);
  });

  const index = indexPage(catalog, serviceVersion());
  app.use((request, response) => {
    // / is the index for this machine's callers; others get the 404 page the legacy server gave.
    const { path } = requestOf(request).target;
    if (
      path === '/' &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      isLocalCaller(request, config.access)
    ) {
      send(response, 200, HTML, index);
      return;
    }
    send(response, 404, HTML, notFoundPage(path));
  });

  app.use((error: unknown, request: express.Request, response: express.Response, _next: express.NextFunction) => {
    failRequest(response, error, request);
  });
  return (request, response, target, address) => {
    requests.set(request, { target, address });
    app(request, response);
  };
}

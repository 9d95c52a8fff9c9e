import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { notFoundPage } from '../pages/error-page';
import { indexPage } from '../pages/index-page';
import { isLocalCaller } from '../pages/local-caller';
import { PageRoutes } from '../pages/page-routes';
import { serviceVersion } from '../lib/package-info';
import { send } from '../wire/send';
import { failRequest } from './fail-request';
import type { PageTarget } from './request-target';
import type { ServiceParts } from './service-parts';

const HTML = 'text/html; charset=utf-8';

/** Serves a page whose target the server resolved: the pages take it and parse no path. */
export type PageServer = (request: IncomingMessage, response: ServerResponse, target: PageTarget) => void;

/**
 * The Express application behind the pages (GET /X.asmx with ?WSDL, ?disco, ?op= or nothing) and
 * the 404 page. The server has taken every other request to an endpoint before: SOAP calls,
 * operation calls and refused methods (see request-target.ts), and it hands each page request
 * over with its target, resolved there.
 */
export function createPageServer({ config, catalog }: ServiceParts): PageServer {
  const pages = new PageRoutes(catalog, config);
  const targets = new WeakMap<IncomingMessage, PageTarget>();
  const targetOf = (request: IncomingMessage) => targets.get(request) as PageTarget;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((request, response, next) => {
    const { endpoint, query } = targetOf(request);
    if (!endpoint) {
      next();
      return;
    }
    pages.handle(request, response, endpoint, query);
  });

  const index = indexPage(catalog, serviceVersion());
  app.use((request, response) => {
    // / is the index for this machine's callers; others get the 404 page the legacy server gave.
    const { path } = targetOf(request);
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
  return (request, response, target) => {
    targets.set(request, target);
    app(request, response);
  };
}

import express from 'express';
import { notFoundPage } from '../pages/error-page';
import { indexPage } from '../pages/index-page';
import { isLocalCaller } from '../pages/local-caller';
import { PageRoutes } from '../pages/page-routes';
import { serviceVersion } from '../lib/package-info';
import { send } from '../wire/send';
import { failRequest } from './fail-request';
import type { ServiceParts } from './service-parts';

const HTML = 'text/html; charset=utf-8';

/**
 * The Express application behind the pages (GET /X.asmx with ?WSDL, ?disco, ?op= or nothing) and
 * the 404 page. The server has taken every other request to an endpoint before: SOAP calls,
 * operation calls and refused methods (see request-target.ts).
 */
export function createApp({ config, catalog }: ServiceParts): express.Express {
  const pages = new PageRoutes(catalog, config);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((request, response, next) => {
    const url = request.url;
    const queryStart = url.indexOf('?');
    const endpoint = catalog.endpointByPath(queryStart === -1 ? url : url.slice(0, queryStart));
    if (!endpoint) {
      next();
      return;
    }
    pages.handle(request, response, endpoint, queryStart === -1 ? '' : url.slice(queryStart + 1));
  });

  const index = indexPage(catalog, serviceVersion());
  app.use((request, response) => {
    const queryStart = request.url.indexOf('?');
    // / is the index for this machine's callers; others get the 404 page the legacy server gave.
    const path = queryStart === -1 ? request.url : request.url.slice(0, queryStart);
    if (
      path === '/' &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      isLocalCaller(request, config.access)
    ) {
      send(response, 200, HTML, index);
      return;
    }
    send(response, 404, HTML, notFoundPage(queryStart === -1 ? request.url : request.url.slice(0, queryStart)));
  });

  app.use((error: unknown, request: express.Request, response: express.Response, _next: express.NextFunction) => {
    failRequest(response, error, request);
  });
  return app;
}

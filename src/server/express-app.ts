import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpBinding } from '../http/http-binding';
import { JsonBinding } from '../http/json-binding';
import { log } from '../lib/log';
import { exceptionPage, NO_SCRIPT_SERVICE, notFoundPage, UNRECOGNIZED_FORMAT } from '../pages/error-page';
import { PageRoutes } from '../pages/page-routes';
import { parseContentType } from '../wire/content-type';
import { send } from '../wire/send';
import type { ServiceParts } from './service-parts';

const ASMX_PATH = /^(\/[^/]+\.asmx)(?:\/(.*))?$/;
const HTML = 'text/html; charset=utf-8';
/** The path of ASP.NET's script proxy for a service (and its debug version). */
const SCRIPT_PROXY = new Set(['js', 'jsdebug']);

/**
 * The Express application behind everything that is not a SOAP call: the HTTP GET/POST and JSON
 * bindings (/X.asmx/Op) and the pages (/X.asmx with ?WSDL, ?disco, ?op= or nothing).
 */
export function createApp({ config, catalog, pipeline }: ServiceParts): express.Express {
  const httpBinding = new HttpBinding(config, pipeline);
  const jsonBinding = new JsonBinding(pipeline);
  const pages = new PageRoutes(catalog, config);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((request, response, next) => {
    const url = request.url;
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
    const match = ASMX_PATH.exec(path);
    const endpoint = match ? catalog.endpointByPath(match[1]) : undefined;
    if (!match || !endpoint) {
      next();
      return;
    }
    // ASMX's protocols take GET and POST only; HEAD included, anything else finds none of them.
    if (request.method !== 'GET' && request.method !== 'POST') {
      response.setHeader('Allow', 'GET, POST');
      send(response, 405, HTML, exceptionPage(UNRECOGNIZED_FORMAT));
      return;
    }
    if (match[2] !== undefined && SCRIPT_PROXY.has(match[2])) {
      send(response, 500, HTML, exceptionPage(NO_SCRIPT_SERVICE));
      return;
    }
    let work: Promise<void> | void;
    if (match[2] === undefined) {
      work = pages.handle(request, response, endpoint, query);
    } else {
      const operationName = decodeURIComponentSafe(match[2]);
      const operation = endpoint.operations.find((candidate) => candidate.name === operationName);
      const json =
        request.method === 'POST' && parseContentType(request.headers['content-type']).mediaType === JSON_TYPE;
      // An unknown method name is answered by the HTTP binding, in ASMX's text, whatever the body.
      work =
        operation && json
          ? jsonBinding.handle(request, response, operation)
          : httpBinding.handle(request, response, { endpoint, operationName, query });
    }
    Promise.resolve(work).catch(next);
  });

  app.use((request, response) => {
    const queryStart = request.url.indexOf('?');
    send(response, 404, HTML, notFoundPage(queryStart === -1 ? request.url : request.url.slice(0, queryStart)));
  });

  app.use((error: unknown, request: express.Request, response: express.Response, _next: express.NextFunction) => {
    failRequest(response, error, request);
  });
  return app;
}

const JSON_TYPE = 'application/json';

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The last resort for a failure nothing else handled: log it, answer 500 without details. */
export function failRequest(response: ServerResponse, error: unknown, request?: IncomingMessage): void {
  log.error('request failed', { url: request?.url, error: error instanceof Error ? error.stack : String(error) });
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.setHeader('Connection', 'close');
  send(
    response,
    500,
    'text/plain; charset=utf-8',
    'The service could not complete the request; the failure has been logged.\r\n',
  );
}

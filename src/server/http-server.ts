import { createServer, type Server } from 'node:http';
import { createApp, failRequest } from './express-app';
import { SoapBinding } from '../soap/soap-binding';
import type { ServiceParts } from './service-parts';

/**
 * The HTTP server: a SOAP call (POST to an .asmx path) goes straight to the SOAP binding on the
 * bare node:http request; everything else goes through the Express application.
 */
export function createHttpServer(parts: ServiceParts): Server {
  const soap = new SoapBinding(parts.catalog, parts.config, parts.pipeline);
  const app = createApp(parts);
  const server = createServer((request, response) => {
    if (request.method === 'POST') {
      const url = request.url ?? '';
      const queryStart = url.indexOf('?');
      const endpoint = parts.catalog.endpointByPath(queryStart === -1 ? url : url.slice(0, queryStart));
      if (endpoint) {
        soap.handle(request, response, endpoint).catch((error: unknown) => failRequest(response, error, request));
        return;
      }
    }
    app(request, response);
  });
  // A client that sends headers or a body slowly must not hold a connection for ever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

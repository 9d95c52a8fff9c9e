import { createServer, type Server } from 'node:http';
import { createApp, failRequest } from './express-app';
import { SoapBinding } from '../soap/soap-binding';
import type { ServiceParts } from './service-parts';

/** How long a client has to send its headers, and its whole request, before the connection is cut. */
export interface ClientTimeLimits {
  readonly headersMs: number;
  readonly requestMs: number;
}

/** The limits the README documents; tests start services with shorter ones. */
export const CLIENT_TIME_LIMITS: ClientTimeLimits = { headersMs: 20_000, requestMs: 30_000 };

/**
 * How often Node looks for connections past their limits. It looks every 30 s by default, which
 * let a slow client hold a connection for up to 30 s beyond either limit; looking every second
 * (or a tenth of a shorter limit) keeps both within a second of what they say.
 */
export function checkingIntervalFor(limits: ClientTimeLimits): number {
  return Math.max(10, Math.min(1_000, Math.floor(limits.headersMs / 10)));
}

/**
 * The HTTP server: a SOAP call (POST to an .asmx path) goes straight to the SOAP binding on the
 * bare node:http request; everything else goes through the Express application.
 */
export function createHttpServer(parts: ServiceParts, limits: ClientTimeLimits = CLIENT_TIME_LIMITS): Server {
  const soap = new SoapBinding(parts.catalog, parts.config, parts.pipeline);
  const app = createApp(parts);
  const options = {
    // A client that sends headers or a body slowly must not hold a connection for ever.
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: checkingIntervalFor(limits),
  };
  const server = createServer(options, (request, response) => {
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
  server.keepAliveTimeout = 5_000;
  return server;
}

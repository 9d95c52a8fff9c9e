import { createServer, type Server } from 'node:http';
import { createApp } from './express-app';
import { SoapBinding } from '../bindings/soap/soap-binding';
import { failRequest } from './fail-request';
import { OperationRoutes } from './operation-routes';
import { OPERATOR_PATHS, OperatorRoutes } from './operator-routes';
import { type RequestTracking, trackRequests } from './request-tracking';
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

export interface HttpServer {
  readonly server: Server;
  readonly tracking: RequestTracking;
}

/**
 * The HTTP server: every request is tracked (its id, the access log, the figures); a SOAP call
 * (POST to an .asmx path) goes straight to the SOAP binding on the bare node:http request, the
 * operator's endpoints to their routes, an operation call (/X.asmx/Op) to the HTTP or JSON binding
 * as directly, and everything else (the pages, the 404 page) through the Express application.
 */
export function createHttpServer(parts: ServiceParts, limits: ClientTimeLimits = CLIENT_TIME_LIMITS): HttpServer {
  const soap = new SoapBinding(parts.catalog, parts.config, parts.pipeline);
  const operator = new OperatorRoutes(parts);
  const operations = new OperationRoutes(parts);
  const app = createApp(parts);
  const tracking = trackRequests(
    (request, response) => {
      const url = request.url ?? '';
      const queryStart = url.indexOf('?');
      const path = queryStart === -1 ? url : url.slice(0, queryStart);
      if (request.method === 'POST') {
        const endpoint = parts.catalog.endpointByPath(path);
        if (endpoint) {
          soap.handle(request, response, endpoint).catch((error: unknown) => failRequest(response, error, request));
          return;
        }
      }
      if (OPERATOR_PATHS.has(path)) {
        operator.handle(request, response, path).catch((error: unknown) => failRequest(response, error, request));
        return;
      }
      if (operations.route(request, response, path, queryStart === -1 ? '' : url.slice(queryStart + 1))) return;
      app(request, response);
    },
    { catalog: parts.catalog, trustedProxies: parts.config.access.trustedProxies, telemetry: parts.telemetry },
  );
  const server = createServer(
    {
      // A client that sends headers or a body slowly must not hold a connection for ever.
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      connectionsCheckingInterval: checkingIntervalFor(limits),
    },
    tracking.listener,
  );
  server.keepAliveTimeout = 5_000;
  return { server, tracking };
}

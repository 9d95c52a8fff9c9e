import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Catalog } from '../contract/catalog';
import type { Config } from '../config/service-config';
import { createPageServer, type PageServer } from './express-app';
import { HttpBinding } from '../bindings/http/http-binding';
import { JsonBinding } from '../bindings/json/json-binding';
import { SoapBinding } from '../bindings/soap/soap-binding';
import { exceptionPage, NO_SCRIPT_SERVICE, UNRECOGNIZED_FORMAT } from '../pages/error-page';
import type { CallPipeline } from '../pipeline/call-pipeline';
import type { Exchange } from '../pipeline/exchange';
import type { Served } from '../pipeline/reply';
import type { RequestRecord } from '../telemetry/request-record';
import { send } from '../wire/send';
import { failRequest } from './fail-request';
import { NodeCallRequest } from './node-call-request';
import { OperatorRoutes } from './operator-routes';
import { providerRoutes } from '../bindings/oneroster/provider-routes';
import { RequestRouter } from './request-target';
import { type RequestTracking, trackRequests } from './request-tracking';
import type { ServiceParts } from './service-parts';
import { writeReply } from './write-reply';

const HTML = 'text/html; charset=utf-8';

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

/** The call in node's request, as the pipeline reads it: plain values, the client's address as the record has it. */
function exchangeOf(pipeline: CallPipeline, request: IncomingMessage, record: RequestRecord): Exchange {
  return pipeline.exchange(new NodeCallRequest(request, record.address), record);
}

/**
 * Writes the reply once the call is served and its audit record kept (see AuditTrail.afterJournal);
 * a failure on the way is the last resort's.
 */
async function writeWhenServed(
  pipeline: CallPipeline,
  request: IncomingMessage,
  response: ServerResponse,
  serving: Promise<Served>,
) {
  try {
    const served = await serving;
    // afterAudit sends at once too when nothing is held; asking first spares most calls its two closures.
    if (!pipeline.auditHoldsAnswers) {
      writeReply(response, served);
      return;
    }
    pipeline.afterAudit(
      () => writeReply(response, served),
      (error) => failRequest(response, error, request),
    );
  } catch (error) {
    failRequest(response, error, request);
  }
}

/**
 * What resolves, decodes and pages a request alike whichever school it is for: the router, the
 * bindings and the page server (an Express application) read the catalog and the deployment's
 * wire settings alone, so a district makes them once for all its schools rather than once per
 * school opened, which made up much of a school's opening and of the memory it holds.
 */
export interface RequestRouting {
  readonly router: RequestRouter;
  readonly soap: SoapBinding;
  readonly http: HttpBinding;
  readonly json: JsonBinding;
  readonly pages: PageServer;
}

export function requestRouting(config: Config, catalog: Catalog): RequestRouting {
  return {
    router: new RequestRouter(catalog),
    soap: new SoapBinding(catalog, config),
    http: new HttpBinding(config),
    json: new JsonBinding(config.budgets),
    pages: createPageServer(config, catalog),
  };
}

/**
 * A school's requests: every request is tracked (its id, the access log, the figures) and its
 * target resolved once (request-target.ts). A SOAP call goes straight to the pipeline with the SOAP
 * binding, handed what they read of node's request as plain values (node-call-request.ts), an
 * operation call (/X.asmx/Op) with the HTTP or JSON binding as directly, the operator's endpoints
 * to their routes, and everything else (the pages, the 404 page) through the Express application.
 * The bindings and the pipeline answer with a reply; the server writes it.
 */
export function trackSchoolRequests(
  parts: ServiceParts,
  routing: RequestRouting = requestRouting(parts.config, parts.catalog),
): RequestTracking {
  const { pipeline } = parts;
  const { soap, http, json, pages } = routing;
  const operator = new OperatorRoutes(parts);
  const provider = providerRoutes(parts.provider);
  return trackRequests(
    (request, response, record, target) => {
      let serving: Promise<Served>;
      switch (target.kind) {
        case 'soap': {
          const announced = soap.requestTo(target.endpoint, request.headers['content-type']);
          serving = pipeline.serve(exchangeOf(pipeline, request, record), soap, announced);
          break;
        }
        case 'http':
          serving = pipeline.serve(exchangeOf(pipeline, request, record), http, target);
          break;
        case 'json':
          serving = pipeline.serve(exchangeOf(pipeline, request, record), json, target.operation);
          break;
        case 'oneroster':
          provider(request, response, record).catch((error: unknown) => {
            failRequest(response, error, request);
          });
          return;
        case 'operator':
          operator.handle(request, response, target.endpointPath).catch((error: unknown) => {
            failRequest(response, error, request);
          });
          return;
        case 'method-not-allowed':
          response.setHeader('Allow', 'GET, POST');
          send(response, 405, HTML, exceptionPage(UNRECOGNIZED_FORMAT));
          return;
        case 'script-proxy':
          send(response, 500, HTML, exceptionPage(NO_SCRIPT_SERVICE));
          return;
        case 'page':
          pages(request, response, target, parts.config);
          return;
      }
      writeWhenServed(pipeline, request, response, serving);
    },
    {
      router: routing.router,
      trustedProxies: parts.config.access.trustedProxies,
      telemetry: parts.telemetry,
      school: parts.config.school,
    },
  );
}

/** The HTTP server of the deployment's own school (see trackSchoolRequests). */
export function createHttpServer(parts: ServiceParts, limits: ClientTimeLimits = CLIENT_TIME_LIMITS): HttpServer {
  const tracking = trackSchoolRequests(parts);
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

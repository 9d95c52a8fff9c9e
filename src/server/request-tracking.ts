import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clientAddress, type NetworkList } from '../lib/networks';
import { logRequest } from '../telemetry/access-log';
import type { ProcessTelemetry } from '../telemetry/process-telemetry';
import { requestIdFor } from '../telemetry/request-id';
import { recordOf, type RequestRecord, startRecord } from '../telemetry/request-record';
import type { RequestRouter, RequestTarget } from './request-target';

/** The status logged for a request whose client went away before its response was complete (nginx's). */
const CLIENT_CLOSED_REQUEST = 499;

export interface RequestTracking {
  /** The server's request listener: every request is tracked, then routed. */
  readonly listener: RequestListener;
  /** How many requests are being answered now. */
  inFlight(): number;
  /**
   * From now on every response closes its connection once it is sent (Connection: close), those
   * being answered included, so that keep-alive clients go elsewhere: the process is stopping.
   */
  closeConnectionsAfterResponses(): void;
}

/** Routes a tracked request to its target; `record` is the request's, to be filled in on the way. */
export type TrackedListener = (
  request: IncomingMessage,
  response: ServerResponse,
  record: RequestRecord,
  target: RequestTarget,
) => void;

export interface TrackingParts {
  readonly router: RequestRouter;
  readonly trustedProxies: NetworkList;
  readonly telemetry: ProcessTelemetry;
  /** The sourcedId of the district's school this server is, named in its figures and log lines. */
  readonly school?: string;
}

/**
 * Starts a record for every request (its id, from X-Request-Id when the caller sent a usable one,
 * is returned in the response's X-Request-Id on every binding and page: see wire/send.ts), and
 * when its response is done, hands the record to the figures and to the access log: one record,
 * two readers.
 */
export function trackRequests(
  route: TrackedListener,
  { router, trustedProxies, telemetry, school }: TrackingParts,
): RequestTracking {
  const figures = telemetry.requestsOf(school);
  const answering = new Set<ServerResponse>();
  let closing = false;

  /** When a response is done (or its client gone): the record goes to the figures and the log. */
  function finished(this: ServerResponse): void {
    answering.delete(this);
    const record = recordOf(this) as RequestRecord;
    const status = this.writableFinished ? this.statusCode : CLIENT_CLOSED_REQUEST;
    const durationMs = performance.now() - record.startedAt;
    figures.add(record, status, durationMs);
    logRequest(record, status, durationMs);
  }

  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const startedAt = performance.now();
    const { headers } = request;
    const id = requestIdFor(headers['x-request-id']);
    const address = clientAddress(request.socket.remoteAddress ?? '', headers['x-forwarded-for'], trustedProxies);
    // The target is resolved here, once: its endpoint is what the figures and the log call the request's.
    const target = router.resolve(request.method, request.url ?? '', headers['content-type']);
    const record = startRecord(response, id, address, target.endpointPath, startedAt, school);
    if (closing) response.setHeader('Connection', 'close');
    answering.add(response);
    // One function for every response, reading the record from it: no closure to make per request.
    response.on('close', finished);
    route(request, response, record, target);
  };

  return {
    listener,
    inFlight: () => answering.size,
    closeConnectionsAfterResponses: () => {
      closing = true;
      for (const response of answering) if (!response.headersSent) response.setHeader('Connection', 'close');
    },
  };
}

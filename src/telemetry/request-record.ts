import type { ServerResponse } from 'node:http';

/**
 * What one request was, filled in as it is served: the server starts it, the call pipeline adds
 * the operation, binding, caller and outcome, and when the response is done the one record feeds
 * both the access log line and the figures (metrics, status page).
 */
export interface RequestRecord {
  readonly id: string;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
  /** The client's address (behind a trusted proxy, the one it forwarded). */
  readonly address: string;
  /**
   * The endpoint's path (/X.asmx), an operator path (/metrics), or 'other': never the request's own
   * path, which could carry anything and would make the figures' labels unbounded.
   */
  readonly endpoint: string;
  /** The sourcedId of the district's school the request reached; undefined at the deployment's own. */
  readonly school?: string;
  operation: string | undefined;
  binding: string | undefined;
  /** The caller's name once it is recognised ('anonymous' when it presented nothing that names it). */
  caller: string | undefined;
  /** 'ok', the kind of the error the call was answered with, or 'rate-limited'; undefined for pages. */
  outcome: string | undefined;
}

/**
 * The record rides on the response, under a symbol. Not in a WeakMap: a WeakMap keyed by every
 * response costs the garbage collector more than the rest of the record's bookkeeping together.
 */
const RECORD = Symbol('request record');

type Recorded = ServerResponse & { [RECORD]?: RequestRecord };

/** Starts the record of a request, found again by `recordOf` from its response wherever it goes. */
export function startRecord(
  response: ServerResponse,
  id: string,
  address: string,
  endpoint: string,
  startedAt: number,
  school?: string,
): RequestRecord {
  const record: RequestRecord = {
    id,
    startedAt,
    address,
    endpoint,
    school,
    operation: undefined,
    binding: undefined,
    caller: undefined,
    outcome: undefined,
  };
  (response as Recorded)[RECORD] = record;
  return record;
}

/** The record of a response the server started one for; undefined for one made up in a unit test. */
export function recordOf(response: ServerResponse): RequestRecord | undefined {
  return (response as Recorded)[RECORD];
}

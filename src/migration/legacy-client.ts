import { boundedFetch, FetchFailure } from '../lib/bounded-fetch';
import type { Answer } from './answer';

/** The request headers passed on to the legacy service: what says what the call is, nothing of this service's. */
export const FORWARDED_HEADERS = ['content-type', 'soapaction', 'accept', 'accept-language', 'user-agent'] as const;
/**
 * The answer headers passed back to the caller: what a client reads (the type, ASMX's JSON error
 * flag, caching and download names). Connection and length headers are this connection's own.
 */
export const ANSWER_HEADERS = ['content-type', 'jsonerror', 'cache-control', 'content-disposition'] as const;

/** A call as it is passed on: the caller's method, path and query (below LEGACY_URL), headers and body. */
export interface LegacyRequest {
  readonly method: 'GET' | 'POST';
  /** The path and query as the caller sent them: /X.asmx or /X.asmx/Op?… */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer | undefined;
  /** The caller's address (behind a trusted proxy, the client's), sent in X-Forwarded-For. */
  readonly callerAddress: string;
}

export interface LegacyLimits {
  readonly legacyUrl: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** The legacy service did not give an answer: not reachable, too slow, too large, or a redirect. */
export class LegacyUnavailable extends Error {}

/**
 * Asks the legacy service, within a time limit and a size cap. Any answer it gives, a fault
 * included, is an answer; only no answer at all is LegacyUnavailable.
 */
export async function askLegacy(limits: LegacyLimits, request: LegacyRequest, timeoutMs = limits.timeoutMs) {
  const headers: Record<string, string> = { 'x-forwarded-for': request.callerAddress };
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const url = new URL(`${limits.legacyUrl}${request.target}`);
  // fetch refuses a URL with credentials: a user and password in LEGACY_URL go as HTTP Basic.
  if (url.username !== '' || url.password !== '') {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  try {
    const answer = await boundedFetch(
      url.href,
      { method: request.method, headers, body: request.method === 'POST' ? request.body : undefined },
      { timeoutMs, maxResponseBytes: limits.maxBytes },
    );
    const kept: Record<string, string> = {};
    for (const name of ANSWER_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) kept[name] = value;
    }
    return { status: answer.status, headers: kept, body: answer.bytes } satisfies Answer;
  } catch (error) {
    if (error instanceof FetchFailure) throw new LegacyUnavailable(`the legacy service: ${error.message}`);
    throw error;
  }
}

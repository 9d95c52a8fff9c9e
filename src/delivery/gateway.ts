import type { ClaimedMessage } from '../store/queries/outbox';
import { boundedFetch, FetchFailure, type BoundedResponse } from '../lib/bounded-fetch';
import { parseRetryAfter } from './backoff';

/** What a gateway made of one message; the worker records it. */
export type GatewayOutcome =
  | { readonly kind: 'sent' }
  | { readonly kind: 'retry'; readonly error: string; readonly retryAfterMs?: number }
  | { readonly kind: 'failed'; readonly error: string }
  /** The push token is gone: the message fails and its device is disabled. */
  | { readonly kind: 'token-invalid'; readonly error: string };

export interface Gateway {
  /** Sends one message; `stop` abandons the send when the worker stops before the gateway answered. */
  send(message: ClaimedMessage, content: unknown, stop?: AbortSignal): Promise<GatewayOutcome>;
}

/**
 * The headers every gateway request carries: an Idempotency-Key of the message's own, the same on
 * every attempt. A send can reach the gateway and its outcome still be lost (a node killed in
 * between); the message is then sent again, and a gateway that honours the key delivers it once.
 * The call's reference alone is not enough: one call (SendMarkNotes, a partner school's
 * notification) queues a message per device under one reference, and a gateway that honoured a
 * shared key would deliver only the first of them.
 */
export function idempotencyHeaders(message: ClaimedMessage): Record<string, string> {
  return { 'Idempotency-Key': `${message.reference}.${message.id}` };
}

/** Gateways' error bodies can be long; a stored last_error keeps the start. */
const MAX_ERROR_TEXT = 300;
/** Enough for any gateway's error answer; success bodies are not needed. */
const MAX_GATEWAY_RESPONSE_BYTES = 64 * 1024;

export function errorText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_ERROR_TEXT ? `${flat.slice(0, MAX_ERROR_TEXT)}…` : flat;
}

/**
 * Sends one request and classifies the common answers: 2xx sent; 429, 5xx, time-outs and network
 * failures are worth retrying (with the gateway's Retry-After); a redirect or any other answer
 * fails the message. `special` may classify an answer first (FCM's unregistered token).
 */
export async function exchange(
  url: string,
  init: Omit<RequestInit, 'redirect' | 'signal'>,
  limits: { readonly timeoutMs: number; readonly stop: AbortSignal | undefined },
  now: () => Date,
  special?: (response: BoundedResponse) => GatewayOutcome | undefined,
): Promise<GatewayOutcome> {
  let response: BoundedResponse;
  try {
    response = await boundedFetch(url, init, { ...limits, maxResponseBytes: MAX_GATEWAY_RESPONSE_BYTES });
  } catch (error) {
    // A send abandoned because the worker stops may have reached the gateway: like a time-out, it is tried again.
    if (error instanceof FetchFailure && ['timeout', 'network', 'stopped'].includes(error.kind))
      return { kind: 'retry', error: `gateway ${error.kind}: ${error.message}` };
    return { kind: 'failed', error: `gateway: ${error instanceof Error ? error.message : String(error)}` };
  }
  const classified = special?.(response);
  if (classified) return classified;
  if (response.status >= 200 && response.status < 300) return { kind: 'sent' };
  const error = errorText(`gateway answered ${response.status}: ${response.body}`);
  if (response.status === 429 || response.status >= 500)
    return { kind: 'retry', error, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now()) };
  return { kind: 'failed', error };
}

/**
 * An outgoing HTTP call with the limits a service needs when it calls someone else: a time limit
 * on the whole exchange, no redirects followed (a 3xx is a failure, so a call never lands at an
 * address nobody configured), and a cap on the response read into memory.
 */
export interface BoundedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  /** The body's bytes as they came, for a caller that passes them on unchanged. */
  readonly bytes: Buffer;
}

export type FetchFailureKind = 'timeout' | 'network' | 'redirect' | 'too-large' | 'stopped';

export class FetchFailure extends Error {
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface FetchLimits {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** Abandons the call when it aborts: the process is stopping and will not wait for the answer. */
  readonly stop?: AbortSignal;
}

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new FetchFailure('too-large', `the response is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function boundedFetch(
  url: string,
  init: Omit<RequestInit, 'redirect' | 'signal'>,
  limits: FetchLimits,
): Promise<BoundedResponse> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.stop ? AbortSignal.any([timeout, limits.stop]) : timeout;
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new FetchFailure('redirect', `answered ${response.status} (a redirect, which is not followed)`);
    }
    const bytes = await readCapped(response, limits.maxResponseBytes);
    return { status: response.status, headers: response.headers, body: bytes.toString('utf8'), bytes };
  } catch (error) {
    if (error instanceof FetchFailure) throw error;
    if (limits.stop?.aborted) throw new FetchFailure('stopped', 'abandoned: the process is stopping');
    if (timeout.aborted) throw new FetchFailure('timeout', `no answer within ${limits.timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new FetchFailure(
      'network',
      cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)),
    );
  }
}

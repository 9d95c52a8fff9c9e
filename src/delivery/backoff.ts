/**
 * When to try a failed message again: exponential backoff with full jitter (a random delay up to
 * base * 2^(attempt-1), capped), so that messages failing together do not retry together, and
 * never earlier than a Retry-After the gateway asked for.
 */
export function retryDelayMs(
  attempts: number,
  baseMs: number,
  maxMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  const jittered = Math.round(ceiling * random());
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now; undefined if absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}

/** Raised by withinTime when the work takes longer than allowed. */
export class TimeLimitExceeded extends Error {}

/**
 * Resolves as `work` does, or fails with TimeLimitExceeded after `ms`: for checks that must answer
 * quickly even when what they ask (a store that went away without closing its connections) hangs.
 * The work itself goes on; only the wait for it ends.
 */
export function withinTime<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

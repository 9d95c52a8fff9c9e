/**
 * Asks again and again until the answer satisfies `done`, or the time is up; either way resolves
 * with the last answer, so that the test's own assertion on it says what was expected and what came.
 * For effects that arrive asynchronously (a notification between processes, a queue draining).
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 15_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

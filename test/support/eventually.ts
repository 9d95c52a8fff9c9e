/**
 * Polls `read` until `check` holds of what it gives, and gives that; after about 15 s, gives the
 * last value, for the test's own assertion to fail on with what was found. For what happens after
 * an answer is sent (comparisons, the audit trail), the written result is the deterministic signal.
 */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (check(value) || attempt >= 600) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Durations counted into buckets, as a Prometheus histogram counts them, but kept in plain numbers:
 * adding one is a few comparisons, where a prom-client histogram with labels costs a microsecond a
 * call (a SOAP call costs about 25 µs in all). The figures are turned into prom-client's form
 * only when they are read.
 */

/** Upper bounds, in ms, of the buckets of a request's duration; the last bucket holds what is above them. */
export const REQUEST_BOUNDS_MS: readonly number[] = [
  0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000,
];
/** Upper bounds, in ms, of the buckets of a store query's duration. */
export const QUERY_BOUNDS_MS: readonly number[] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 1000];

/** Counts and the sum of durations, by bucket (not cumulative), as plain data that crosses processes. */
export interface LatencyFigures {
  count: number;
  sumMs: number;
  /** One count per bound, and a last one for durations above every bound. */
  readonly buckets: number[];
}

export function emptyFigures(bounds: readonly number[]): LatencyFigures {
  return { count: 0, sumMs: 0, buckets: new Array<number>(bounds.length + 1).fill(0) };
}

export function addDuration(figures: LatencyFigures, bounds: readonly number[], ms: number): void {
  let index = 0;
  while (index < bounds.length && ms > bounds[index]) index += 1;
  figures.buckets[index] += 1;
  figures.count += 1;
  figures.sumMs += ms;
}

/** Adds `from` into `into` (the same bounds). */
export function addFigures(into: LatencyFigures, from: LatencyFigures): void {
  into.count += from.count;
  into.sumMs += from.sumMs;
  for (let index = 0; index < into.buckets.length; index += 1) into.buckets[index] += from.buckets[index] ?? 0;
}

/**
 * The duration under which the fraction `q` of the counted ones fall, estimated as Prometheus's
 * histogram_quantile does: linearly within the bucket it lands in. In the last, open bucket it is
 * the highest bound. Undefined when nothing was counted.
 */
export function quantileMs(figures: LatencyFigures, bounds: readonly number[], q: number): number | undefined {
  if (figures.count === 0) return undefined;
  const rank = q * figures.count;
  let below = 0;
  for (let index = 0; index < figures.buckets.length; index += 1) {
    const inBucket = figures.buckets[index];
    if (below + inBucket >= rank && inBucket > 0) {
      if (index === bounds.length) return bounds[bounds.length - 1];
      const lower = index === 0 ? 0 : bounds[index - 1];
      return lower + ((bounds[index] - lower) * (rank - below)) / inBucket;
    }
    below += inBucket;
  }
  return bounds[bounds.length - 1];
}

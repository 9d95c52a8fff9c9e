import {
  addDuration,
  addFigures,
  emptyFigures,
  quantileMs,
  REQUEST_BOUNDS_MS,
} from '../../src/telemetry/latency-counts';
import { histogramValues } from '../../src/telemetry/metric-json';

/** Durations counted into buckets, and the percentiles the status page estimates from them. */
describe('latency counts', () => {
  test('a duration is counted in the first bucket whose bound it does not exceed', () => {
    const figures = emptyFigures(REQUEST_BOUNDS_MS);
    for (const ms of [0.2, 0.5, 0.7, 12_000]) addDuration(figures, REQUEST_BOUNDS_MS, ms);
    expect(figures.buckets.slice(0, 2)).toEqual([2, 1]);
    expect(figures.buckets[REQUEST_BOUNDS_MS.length]).toBe(1);
    expect([figures.count, figures.sumMs]).toEqual([4, 12_001.4]);
  });

  test('percentiles are interpolated within their bucket, as histogram_quantile does', () => {
    const figures = emptyFigures(REQUEST_BOUNDS_MS);
    // 50 calls in (10, 25] ms and 50 in (50, 100] ms.
    for (let call = 0; call < 50; call += 1) addDuration(figures, REQUEST_BOUNDS_MS, 20);
    for (let call = 0; call < 50; call += 1) addDuration(figures, REQUEST_BOUNDS_MS, 80);
    expect(quantileMs(figures, REQUEST_BOUNDS_MS, 0.5)).toBe(25);
    expect(quantileMs(figures, REQUEST_BOUNDS_MS, 0.25)).toBe(17.5);
    expect(quantileMs(figures, REQUEST_BOUNDS_MS, 0.99)).toBe(99);
    expect(quantileMs(emptyFigures(REQUEST_BOUNDS_MS), REQUEST_BOUNDS_MS, 0.5)).toBeUndefined();
  });

  test('beyond the highest bound, the highest bound is all that can be said', () => {
    const figures = emptyFigures(REQUEST_BOUNDS_MS);
    addDuration(figures, REQUEST_BOUNDS_MS, 60_000);
    expect(quantileMs(figures, REQUEST_BOUNDS_MS, 0.99)).toBe(10_000);
  });

  test("several processes' figures add up, and read as a Prometheus histogram in seconds", () => {
    const one = emptyFigures([1, 10]);
    const other = emptyFigures([1, 10]);
    addDuration(one, [1, 10], 0.5);
    addDuration(other, [1, 10], 5);
    addDuration(other, [1, 10], 50);
    addFigures(one, other);
    expect(histogramValues('x_seconds', { operation: 'HelloWorld' }, one, [1, 10])).toEqual([
      { metricName: 'x_seconds_bucket', labels: { operation: 'HelloWorld', le: 0.001 }, value: 1 },
      { metricName: 'x_seconds_bucket', labels: { operation: 'HelloWorld', le: 0.01 }, value: 2 },
      { metricName: 'x_seconds_bucket', labels: { operation: 'HelloWorld', le: '+Inf' }, value: 3 },
      { metricName: 'x_seconds_sum', labels: { operation: 'HelloWorld' }, value: 0.0555 },
      { metricName: 'x_seconds_count', labels: { operation: 'HelloWorld' }, value: 3 },
    ]);
  });
});

import type { LatencyFigures } from './latency-counts';

/**
 * A metric in the form prom-client's Registry#getMetricsAsJSON gives and AggregatorRegistry.aggregate
 * takes: plain data, so that it crosses from a worker to the process that answers /metrics.
 */
export interface MetricValueJson {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

export interface MetricJson {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** How the figures of several processes become one: summed, or (for store-wide figures) the highest. */
  aggregator: 'sum' | 'max';
  values: MetricValueJson[];
}

/** The values of one labelled series of a Prometheus histogram in seconds: cumulative buckets, sum, count. */
export function histogramValues(
  name: string,
  labels: Record<string, string>,
  figures: LatencyFigures,
  bounds: readonly number[],
): MetricValueJson[] {
  const values: MetricValueJson[] = [];
  let cumulative = 0;
  for (let index = 0; index < bounds.length; index += 1) {
    cumulative += figures.buckets[index];
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bounds[index] / 1000 }, value: cumulative });
  }
  values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: figures.count });
  values.push({ metricName: `${name}_sum`, labels, value: figures.sumMs / 1000 });
  values.push({ metricName: `${name}_count`, labels, value: figures.count });
  return values;
}

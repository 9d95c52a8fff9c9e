import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { addDuration, emptyFigures, QUERY_BOUNDS_MS } from './latency-counts';
import { histogramValues, type MetricJson } from './metric-json';
import type { MinuteFigures } from './request-figures';
import { RequestFigures } from './request-figures';

/** What one process tells of itself: who it is, its Prometheus figures, and its calls of the last hour. */
export interface ProcessSnapshot {
  readonly pid: number;
  readonly startedAt: string;
  readonly metrics: MetricJson[];
  readonly lastHour: MinuteFigures[];
  /** The last hour of each school of a district this process serves, by sourcedId. */
  readonly schools: Record<string, MinuteFigures[]>;
}

/** The results a gateway attempt is counted under: what the gateway's answer was taken for. */
export type AttemptResult = 'sent' | 'retry' | 'failed' | 'token-invalid';

/**
 * The figures of one serving process: its requests (fed by the server from each request's record),
 * its store queries, its gateway attempts, and the process's own (CPU, memory, event loop, GC)
 * from prom-client. A service of several workers adds up every worker's snapshot.
 */
export class ProcessTelemetry {
  /** The requests of the deployment's own school. */
  readonly requests = new RequestFigures();
  /** The requests of each school of a district, apart: each series names its school. */
  private readonly schools = new Map<string, RequestFigures>();
  readonly startedAt = new Date();
  private readonly queries = emptyFigures(QUERY_BOUNDS_MS);
  private readonly registry = new Registry();
  private readonly attempts = new Counter({
    name: 'school_gateway_attempts_total',
    help: 'Attempts to hand a message to its SMS or push gateway, by channel and result.',
    labelNames: ['channel', 'result'] as const,
    registers: [this.registry],
  });
  /** How many requests are being answered now; the server tells. */
  private inFlight: () => number = () => 0;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  countRequestsInFlight(count: () => number): void {
    this.inFlight = count;
  }

  /** The figures a server counts its requests in: its school's (by sourcedId), or the deployment's own. */
  requestsOf(school: string | undefined): RequestFigures {
    if (school === undefined) return this.requests;
    let figures = this.schools.get(school);
    if (!figures) {
      figures = new RequestFigures(Date.now, school);
      this.schools.set(school, figures);
    }
    return figures;
  }

  storeQueryTook(ms: number): void {
    addDuration(this.queries, QUERY_BOUNDS_MS, ms);
  }

  gatewayAttempt(channel: string, result: AttemptResult): void {
    this.attempts.inc({ channel, result });
  }

  async snapshot(): Promise<ProcessSnapshot> {
    const own = (await this.registry.getMetricsAsJSON()) as unknown as MetricJson[];
    const inFlight: MetricJson = {
      name: 'school_requests_in_flight',
      help: 'Requests being answered at this moment.',
      type: 'gauge',
      aggregator: 'sum',
      values: [{ labels: {}, value: this.inFlight() }],
    };
    const queries: MetricJson = {
      name: 'school_store_query_duration_seconds',
      help: 'Time a store query took, from the query layer sending it to its result.',
      type: 'histogram',
      aggregator: 'sum',
      values: histogramValues('school_store_query_duration_seconds', {}, this.queries, QUERY_BOUNDS_MS),
    };
    return {
      pid: process.pid,
      startedAt: this.startedAt.toISOString(),
      metrics: [...this.requestMetrics(), inFlight, queries, ...own],
      lastHour: this.requests.lastHour(),
      schools: Object.fromEntries([...this.schools].map(([school, figures]) => [school, figures.lastHour()])),
    };
  }

  /** The request metrics of every school together: one metric a name, each school's series in it. */
  private requestMetrics(): MetricJson[] {
    const metrics = this.requests.metrics();
    for (const figures of this.schools.values()) {
      for (const [index, metric] of figures.metrics().entries()) metrics[index].values.push(...metric.values);
    }
    return metrics;
  }
}

import { childMap } from '../lib/child-map';
import { addDuration, emptyFigures, type LatencyFigures, REQUEST_BOUNDS_MS } from './latency-counts';
import { histogramValues, type MetricJson } from './metric-json';
import type { RequestRecord } from './request-record';

/** The outcomes that are refusals of a caller: no credentials, no permission, or a rate limit reached. */
export const REFUSALS: readonly string[] = ['unauthenticated', 'forbidden', 'rate-limited'];

/** One minute's calls, by operation, and refusals, by reason: what the status page charts. */
export interface MinuteFigures {
  /** Minutes since the epoch. */
  readonly minute: number;
  readonly operations: Record<string, LatencyFigures>;
  readonly refusals: Record<string, number>;
}

interface MinuteSlot {
  minute: number;
  readonly operations: Map<string, LatencyFigures>;
  readonly refusals: Map<string, number>;
}

interface Series {
  /** endpoint, operation, binding and outcome; and school, for a school of a district. */
  readonly labels: Readonly<Record<string, string>>;
  readonly latency: LatencyFigures;
}

const MINUTES_KEPT = 60;
const MINUTE_MS = 60_000;

/** The outcome of a request that was no call (a page, a probe): by its status. */
function outcomeOf(record: RequestRecord, status: number): string {
  if (record.outcome !== undefined) return record.outcome;
  if (status >= 500) return 'internal';
  return status >= 400 ? 'client' : 'ok';
}

/**
 * Every finished request of this process, counted twice over from its record: by endpoint,
 * operation, binding and outcome since the process started (the Prometheus figures), and by
 * operation in each of the last sixty minutes (the status page's chart and percentiles).
 */
export class RequestFigures {
  /**
   * The series by endpoint, operation, binding and outcome, one map a label: each label is one of a
   * few strings the catalog and the pipeline hold, so a call finds its series with four lookups and
   * makes no key of its own (a joined key was a new string to build and hash on every call).
   */
  private readonly series = new Map<string, Map<string, Map<string, Map<string, Series>>>>();
  /** Every series, in the order they were first seen: what the Prometheus figures list. */
  private readonly allSeries: Series[] = [];
  private readonly slots: MinuteSlot[] = Array.from({ length: MINUTES_KEPT }, () => ({
    minute: -1,
    operations: new Map(),
    refusals: new Map(),
  }));

  /**
   * `school`: the sourcedId of the district's school whose requests these are, a label of each of
   * its series; none for the deployment's own school (Prometheus reads a missing label as empty).
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly school?: string,
  ) {}

  add(record: RequestRecord, status: number, durationMs: number): void {
    const operation = record.operation ?? '';
    const binding = record.binding ?? '';
    const outcome = outcomeOf(record, status);
    const series = this.seriesOf(record.endpoint, operation, binding, outcome);
    addDuration(series.latency, REQUEST_BOUNDS_MS, durationMs);
    if (record.operation === undefined) return;
    const slot = this.slotNow();
    let figures = slot.operations.get(operation);
    if (!figures) {
      figures = emptyFigures(REQUEST_BOUNDS_MS);
      slot.operations.set(operation, figures);
    }
    addDuration(figures, REQUEST_BOUNDS_MS, durationMs);
    if (REFUSALS.includes(outcome)) slot.refusals.set(outcome, (slot.refusals.get(outcome) ?? 0) + 1);
  }

  /** The last sixty minutes (this one included) that saw calls, oldest first. */
  lastHour(): MinuteFigures[] {
    const current = Math.floor(this.now() / MINUTE_MS);
    return this.slots
      .filter((slot) => slot.minute > current - MINUTES_KEPT)
      .sort((a, b) => a.minute - b.minute)
      .map((slot) => ({
        minute: slot.minute,
        operations: Object.fromEntries(slot.operations),
        refusals: Object.fromEntries(slot.refusals),
      }));
  }

  /** The Prometheus figures: requests, their durations, and refusals by reason. */
  metrics(): MetricJson[] {
    const requests: MetricJson = {
      name: 'school_requests_total',
      help: 'Requests answered, by endpoint, operation, binding and outcome (ok, or the kind of error).',
      type: 'counter',
      aggregator: 'sum',
      values: [],
    };
    const durations: MetricJson = {
      name: 'school_request_duration_seconds',
      help: 'Time from the arrival of a request to the end of its response.',
      type: 'histogram',
      aggregator: 'sum',
      values: [],
    };
    const refusals = new Map<string, number>(REFUSALS.map((reason) => [reason, 0]));
    for (const { labels, latency } of this.allSeries) {
      requests.values.push({ labels, value: latency.count });
      durations.values.push(...histogramValues(durations.name, labels, latency, REQUEST_BOUNDS_MS));
      const refused = refusals.get(labels.outcome);
      if (refused !== undefined) refusals.set(labels.outcome, refused + latency.count);
    }
    const refused: MetricJson = {
      name: 'school_refusals_total',
      help: 'Calls refused: without accepted credentials, not permitted, or over a rate limit.',
      type: 'counter',
      aggregator: 'sum',
      values: [...refusals].map(([reason, value]) => ({ labels: { reason, ...this.schoolLabel }, value })),
    };
    return [requests, durations, refused];
  }

  private seriesOf(endpoint: string, operation: string, binding: string, outcome: string): Series {
    const byOperation = childMap(this.series, endpoint);
    const byBinding = childMap(byOperation, operation);
    const byOutcome = childMap(byBinding, binding);
    let series = byOutcome.get(outcome);
    if (!series) {
      const labels = { endpoint, operation, binding, outcome, ...this.schoolLabel };
      series = { labels, latency: emptyFigures(REQUEST_BOUNDS_MS) };
      byOutcome.set(outcome, series);
      this.allSeries.push(series);
    }
    return series;
  }

  private get schoolLabel(): Record<string, string> {
    return this.school === undefined ? {} : { school: this.school };
  }

  private slotNow(): MinuteSlot {
    const minute = Math.floor(this.now() / MINUTE_MS);
    const slot = this.slots[minute % MINUTES_KEPT];
    if (slot.minute !== minute) {
      slot.minute = minute;
      slot.operations.clear();
      slot.refusals.clear();
    }
    return slot;
  }
}

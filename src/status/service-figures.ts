import { erasedByRetention } from '../store/privacy/retention';
import { AggregatorRegistry } from 'prom-client';
import { serviceVersion } from '../lib/package-info';
import { withinTime } from '../lib/time-limit';
import {
  addFigures,
  emptyFigures,
  quantileMs,
  REQUEST_BOUNDS_MS,
  type LatencyFigures,
} from '../telemetry/latency-counts';
import type { MetricJson } from '../telemetry/metric-json';
import type { ProcessTelemetry } from '../telemetry/process-telemetry';
import { REFUSALS } from '../telemetry/request-figures';
import type { LatencyStatus, NodeStatus, StatusReport, SyncStatus } from '../pages/status-report';
import type { MigrationSettings } from '../config/migration-settings';
import { comparisonCounts } from '../store/queries/shadow-comparisons';
import { migrationStatus } from './migration-figures';
import type { Store } from '../store/open-store';
import { lastSyncRun } from '../store/queries/sis-sync';
import { lastRosterImport, outboxCountsByChannel, storeSizeBytes } from '../store/queries/store-facts';
import type { ServiceProcessTable } from '../store/schema';
import { type GatheredFigures, gatherFigures } from './cluster-figures';
import { type ListedSchool, schoolsStatus } from './school-figures';
import type { Presence } from './presence';

/** How long the figures wait for the store; past it they are answered without the store's. */
const STORE_FIGURES_MS = 2_000;
const MINUTE_MS = 60_000;

export interface FigureSources {
  readonly telemetry: ProcessTelemetry;
  readonly store: Store;
  /** This machine's name and port, once the server listens. */
  readonly node: () => string;
  /** This process's row among those serving from the store, once the server listens. */
  readonly presence: () => Presence | undefined;
  /** The legacy service and the routes, for the status page's Migration section. */
  readonly migration?: MigrationSettings;
  /** When this process syncs from the SIS next, and how its last try went, if it syncs (SIS_SYNC_INTERVAL). */
  readonly sync?: () => { nextRunAt: string | undefined; lastAttempt: { at: string; outcome: string } | undefined };
  /** The sourcedId of the district's school these figures are, whose calls they count; none for the deployment's. */
  readonly school?: string;
  /** The district's schools, listed on the deployment's own status page with their calls. */
  readonly districtSchools?: () => readonly ListedSchool[];
}

type StoreFacts = {
  readonly sizeBytes: number;
  readonly outbox: Awaited<ReturnType<typeof outboxCountsByChannel>>;
  readonly lastImport: Awaited<ReturnType<typeof lastRosterImport>>;
  readonly processes: ServiceProcessTable[];
  readonly comparisons: Awaited<ReturnType<typeof comparisonCounts>>;
  readonly lastSync: Awaited<ReturnType<typeof lastSyncRun>>;
  readonly erasedByRetention: number;
};

function latencyOf(figures: LatencyFigures): LatencyStatus {
  const at = (q: number) => quantileMs(figures, REQUEST_BOUNDS_MS, q) ?? null;
  return { calls: figures.count, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99) };
}

/** The processes serving from the store, one entry a node. */
function nodesOf(processes: readonly ServiceProcessTable[]): NodeStatus[] {
  const nodes = new Map<string, NodeStatus>();
  for (const process of processes) {
    const known = nodes.get(process.node);
    nodes.set(process.node, {
      node: process.node,
      processes: (known?.processes ?? 0) + 1,
      version: known && known.version !== process.version ? `${known.version}, ${process.version}` : process.version,
      since: known && known.since < process.started_at ? known.since : process.started_at,
      seenAt: known && known.seenAt > process.seen_at ? known.seenAt : process.seen_at,
    });
  }
  return [...nodes.values()];
}

/**
 * The service's figures as /metrics and /status answer them: every worker's (see cluster-figures)
 * added up, with the store's own (outbox, size, processes serving, last import) read once, here.
 * A store that does not answer leaves its figures out rather than failing the answer.
 */
export class ServiceFigures {
  constructor(private readonly sources: FigureSources) {}

  /** The Prometheus text of the whole service. */
  async metricsText(): Promise<{ contentType: string; text: string }> {
    const [gathered, facts] = await Promise.all([this.gather(), this.storeFacts()]);
    const storeWide: MetricJson[] = [
      {
        name: 'school_store_up',
        help: 'Whether the store answered the figures query (1) or not (0).',
        type: 'gauge',
        aggregator: 'max',
        values: [{ labels: {}, value: facts instanceof Error ? 0 : 1 }],
      },
    ];
    if (!(facts instanceof Error)) {
      storeWide.push({
        name: 'school_outbox_messages',
        help: 'Outbox messages by state and channel, in the whole store.',
        type: 'gauge',
        aggregator: 'max',
        values: facts.outbox.map(({ state, channel, count }) => ({ labels: { state, channel }, value: count })),
      });
      storeWide.push({
        name: 'school_shadow_comparisons_total',
        help: "Comparisons of this service's answers with the legacy service's, in the store's kept days.",
        type: 'counter',
        aggregator: 'max',
        values: facts.comparisons.map(({ operation, binding, outcome, count }) => ({
          labels: { operation, binding, outcome },
          value: Number(count),
        })),
      });
      if (facts.lastSync) storeWide.push(...syncMetrics(facts.lastSync));
    }
    const registry = AggregatorRegistry.aggregate([
      ...gathered.snapshots.map((snapshot) => snapshot.metrics),
      storeWide,
    ]);
    return { contentType: registry.contentType, text: await registry.metrics() };
  }

  async statusReport(): Promise<StatusReport> {
    const [gathered, facts] = await Promise.all([this.gather(), this.storeFacts()]);
    const { store } = this.sources;
    const now = Date.now();
    const currentMinute = Math.floor(now / MINUTE_MS);
    const callsPerMinute = Array.from({ length: 60 }, (_, index) => {
      const minute = currentMinute - 59 + index;
      return { minute: new Date(minute * MINUTE_MS).toISOString(), calls: {} as Record<string, number> };
    });
    const byOperation = new Map<string, LatencyFigures>();
    const all = emptyFigures(REQUEST_BOUNDS_MS);
    const refusals: Record<string, number> = Object.fromEntries(REFUSALS.map((reason) => [reason, 0]));
    const { school } = this.sources;
    for (const snapshot of gathered.snapshots) {
      for (const slot of school === undefined ? snapshot.lastHour : (snapshot.schools?.[school] ?? [])) {
        const entry = callsPerMinute[slot.minute - (currentMinute - 59)];
        if (!entry) continue;
        for (const [operation, figures] of Object.entries(slot.operations)) {
          entry.calls[operation] = (entry.calls[operation] ?? 0) + figures.count;
          let total = byOperation.get(operation);
          if (!total) {
            total = emptyFigures(REQUEST_BOUNDS_MS);
            byOperation.set(operation, total);
          }
          addFigures(total, figures);
          addFigures(all, figures);
        }
        for (const [reason, count] of Object.entries(slot.refusals)) refusals[reason] = (refusals[reason] ?? 0) + count;
      }
    }
    const known = !(facts instanceof Error);
    const startedAt = gathered.serviceStartedAt;
    const schools = school === undefined ? this.sources.districtSchools?.() : undefined;
    return {
      generatedAt: new Date(now).toISOString(),
      version: serviceVersion(),
      node: this.sources.node(),
      startedAt,
      uptimeSeconds: Math.max(0, Math.floor((now - Date.parse(startedAt)) / 1000)),
      store: {
        engine: store.engine.name,
        location: store.location,
        sizeBytes: known ? facts.sizeBytes : null,
        problem: known ? null : facts.message,
      },
      workers: {
        serving: gathered.workers,
        reported: gathered.snapshots.map(({ pid, startedAt: since }) => ({ pid, startedAt: since })),
      },
      nodes: known ? nodesOf(facts.processes) : null,
      callsPerMinute,
      operations: [...byOperation.entries()]
        .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
        .map(([operation, figures]) => ({ operation, ...latencyOf(figures) })),
      latency: latencyOf(all),
      refusals,
      outbox: known ? facts.outbox : null,
      lastImport:
        known && facts.lastImport
          ? {
              startedAt: facts.lastImport.started_at,
              finishedAt: facts.lastImport.finished_at,
              mode: facts.lastImport.mode,
              source: facts.lastImport.source,
              rowsWritten: facts.lastImport.rows_written,
              rowsSkipped: facts.lastImport.rows_skipped,
            }
          : null,
      erasedByRetention: known ? facts.erasedByRetention : null,
      migration: migrationStatus(this.sources.migration, known ? facts.comparisons : []),
      lastSync: this.syncStatus(known ? facts : undefined),
      ...(schools?.length ? { schools: schoolsStatus(schools, gathered.snapshots, now, latencyOf) } : {}),
    };
  }

  private syncStatus(facts: StoreFacts | undefined): SyncStatus | null {
    const here = this.sources.sync?.();
    const nextRunAt = here?.nextRunAt ?? null;
    const run = facts?.lastSync;
    if (!run && nextRunAt === null) return null;
    const last = run
      ? {
          startedAt: run.started_at,
          finishedAt: run.finished_at,
          durationMs: Date.parse(run.finished_at) - Date.parse(run.started_at),
          node: run.node,
          mode: run.mode,
          outcome: run.outcome,
          records: run.records,
          added: run.added,
          changed: run.changed,
          deleted: run.deleted,
          changes: changesOfRun(run.changes),
          duplicates: run.duplicates,
          warnings: run.warnings,
          problems: run.problems,
          message: run.message,
        }
      : null;
    return { last, nextRunAt, lastAttemptHere: here?.lastAttempt ?? null };
  }

  private gather(): Promise<GatheredFigures> {
    const { telemetry } = this.sources;
    return gatherFigures(() => telemetry.snapshot());
  }

  /** The store's figures, or the error that kept them: a status page is most wanted when the store is down. */
  private async storeFacts(): Promise<StoreFacts | Error> {
    const { store, presence } = this.sources;
    const read = async (): Promise<StoreFacts> => {
      const [sizeBytes, outbox, lastImport, processes, comparisons, lastSync, erased] = await Promise.all([
        storeSizeBytes(store),
        outboxCountsByChannel(store),
        lastRosterImport(store),
        presence()?.serving() ?? Promise.resolve([]),
        comparisonCounts(store, {}),
        lastSyncRun(store),
        erasedByRetention(store),
      ]);
      return { sizeBytes, outbox, lastImport, processes, comparisons, lastSync, erasedByRetention: erased };
    };
    try {
      return await withinTime(read(), STORE_FIGURES_MS, 'the store');
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}

type RunChanges = NonNullable<SyncStatus['last']>['changes'];

/** A run's per-kind figures as recorded (JSON the sync wrote); nothing when unreadable. */
function changesOfRun(text: string): RunChanges {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as RunChanges) : {};
  } catch {
    return {};
  }
}

/** The last SIS sync of any node, from the store: every node answers the same figures. */
function syncMetrics(run: NonNullable<StoreFacts['lastSync']>): MetricJson[] {
  const gauge = (name: string, help: string, values: MetricJson['values']): MetricJson => ({
    name,
    help,
    type: 'gauge',
    aggregator: 'max',
    values,
  });
  return [
    gauge('school_sis_sync_duration_seconds', 'How long the last SIS sync took.', [
      { labels: {}, value: (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 },
    ]),
    gauge(
      'school_sis_sync_last_outcome',
      'The outcome of the last SIS sync (1 for the outcome it had).',
      ['done', 'rows-skipped', 'nothing-written', 'failed'].map((outcome) => ({
        labels: { outcome },
        value: run.outcome === outcome ? 1 : 0,
      })),
    ),
    gauge('school_sis_sync_finished_timestamp_seconds', 'When the last SIS sync finished.', [
      { labels: {}, value: Date.parse(run.finished_at) / 1000 },
    ]),
    gauge(
      'school_sis_sync_records',
      'Records of the last SIS sync: read from the provider, added, changed, deleted; sent twice; ' +
        'its warnings and problems.',
      (['records', 'added', 'changed', 'deleted', 'duplicates', 'warnings', 'problems'] as const).map((kind) => ({
        labels: { kind: kind === 'records' ? 'read' : kind },
        value: run[kind],
      })),
    ),
    gauge(
      'school_sis_sync_changes',
      'Records the last SIS sync added, changed and deleted, per table (marks included).',
      Object.entries(changesOfRun(run.changes)).flatMap(([table, change]) =>
        (['added', 'changed', 'deleted'] as const).map((kind) => ({
          labels: { table, kind },
          value: Number(change?.[kind] ?? 0),
        })),
      ),
    ),
  ];
}

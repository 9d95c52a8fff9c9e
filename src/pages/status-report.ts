/**
 * What the status page shows, and /status.json answers: the service's figures at one moment, for
 * the school's IT staff. Calls, percentiles and refusals cover the last hour, of every worker.
 */
export interface StatusReport {
  readonly generatedAt: string;
  readonly version: string;
  /** This machine's name and port. */
  readonly node: string;
  readonly startedAt: string;
  readonly uptimeSeconds: number;
  readonly store: StoreStatus;
  readonly workers: WorkersStatus;
  /** The processes serving from the store, by node; null when the store could not be asked. */
  readonly nodes: NodeStatus[] | null;
  /** Sixty entries, one a minute, oldest first: calls by operation. */
  readonly callsPerMinute: MinuteCalls[];
  /** Operations called in the last hour, busiest first. */
  readonly operations: OperationStatus[];
  /** Every call of the last hour together. */
  readonly latency: LatencyStatus;
  /** Refusals of the last hour, by reason. */
  readonly refusals: Record<string, number>;
  /** Outbox messages by state and channel; null when the store could not be asked. */
  readonly outbox: OutboxStatus[] | null;
  readonly lastImport: ImportStatus | null;
  /** Students erased by the retention after leaving (RETENTION_AFTER_LEAVING_DAYS); null: the store was not asked. */
  readonly erasedByRetention: number | null;
  /** The last OneRoster REST sync of any node, and when this process tries next; null when none ran or is planned. */
  readonly lastSync: SyncStatus | null;
  /** Who answers each operation and how the comparisons with the legacy service came out; null without one. */
  readonly migration: MigrationStatus | null;
  /** The schools of a district, on the deployment's own status only (when it lists any). */
  readonly schools?: SchoolStatus[];
}

/** A school of a district: where it answers, and its calls of the last hour across every worker. */
export interface SchoolStatus {
  readonly sourcedId: string;
  readonly path: string;
  readonly name: string | null;
  readonly latency: LatencyStatus;
  readonly refusals: number;
}

export interface MigrationStatus {
  readonly legacyUrl: string | null;
  /** Every operation, its route and its comparisons over the kept days, all bindings together. */
  readonly operations: MigrationOperationStatus[];
}

export interface MigrationOperationStatus {
  readonly operation: string;
  readonly route: string;
  readonly compared: number;
  readonly identical: number;
  readonly different: number;
  readonly noisy: number;
  readonly legacyErrors: number;
  readonly dropped: number;
  readonly notCompared: number;
  readonly overBudget: number;
}

export interface StoreStatus {
  readonly engine: string;
  readonly location: string;
  readonly sizeBytes: number | null;
  /** Why the store's figures are missing, when they are. */
  readonly problem: string | null;
}

export interface WorkersStatus {
  /** How many workers serve on this node. */
  readonly serving: number;
  /** Those whose figures are in this report. */
  readonly reported: ReadonlyArray<{ readonly pid: number; readonly startedAt: string }>;
}

export interface NodeStatus {
  readonly node: string;
  readonly processes: number;
  readonly version: string;
  readonly since: string;
  readonly seenAt: string;
}

export interface MinuteCalls {
  readonly minute: string;
  readonly calls: Record<string, number>;
}

export interface LatencyStatus {
  readonly calls: number;
  readonly p50Ms: number | null;
  readonly p90Ms: number | null;
  readonly p99Ms: number | null;
}

export interface OperationStatus extends LatencyStatus {
  readonly operation: string;
}

export interface OutboxStatus {
  readonly state: string;
  readonly channel: string;
  readonly count: number;
}

export interface ImportStatus {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly mode: string;
  readonly source: string;
  readonly rowsWritten: number;
  readonly rowsSkipped: number;
}

export interface SyncStatus {
  /** Null when no sync has run yet. */
  readonly last: {
    readonly startedAt: string;
    readonly finishedAt: string;
    readonly durationMs: number;
    readonly node: string;
    readonly mode: string;
    readonly outcome: string;
    readonly records: number;
    readonly added: number;
    readonly changed: number;
    readonly deleted: number;
    /** Per kind (table), marks included: the import's own figures. */
    readonly changes: Readonly<Record<string, { added: number; changed: number; deleted: number }>>;
    /** Records the provider sent twice, taken once (not among the warnings). */
    readonly duplicates: number;
    readonly warnings: number;
    readonly problems: number;
    /** Why it failed or wrote nothing; empty when it succeeded. */
    readonly message: string;
  } | null;
  /** When this process syncs next (SIS_SYNC_INTERVAL); null when the service does not sync on its own. */
  readonly nextRunAt: string | null;
  /** This process's last try: `busy` when another node was syncing then. */
  readonly lastAttemptHere: { readonly at: string; readonly outcome: string } | null;
}

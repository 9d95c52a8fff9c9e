import type { Kysely, KyselyConfig, Selectable } from 'kysely';
import type { BulkWriter } from './bulk-writer';
import type { SnapshotReader } from './copy/snapshot-reader';
import type { TableWriter } from './copy/table-writer';
import type { Engine } from './engine';
import type { StartWatch } from './reference-data';
import type { ImportConnection } from './roster/import-connection';
import type { AuditEventTable, AuditSubjectTable, Database } from './schema';
import type { DirectReader } from './session';

/** Where the settings put the store: a database URL selects PostgreSQL; none, the embedded SQLite file. */
export interface EngineSettings {
  readonly databaseUrl: string | undefined;
  readonly dataDirectory: string;
}

/** What became of the store's files after an erasure's rows went: the steps taken, and those the store refused. */
export interface FilesScrubbed {
  readonly done: readonly string[];
  readonly refused: readonly string[];
}

/**
 * The driver of an open store, for the work kysely would make slow or cannot say: bulk loads, an
 * import's connection of its own, a copy's snapshot and writer, the audit trail's batches, and the
 * bytes an erasure leaves in the engine's files.
 */
export interface EngineConnection {
  bulkWriter(): BulkWriter;
  importConnection(): Promise<ImportConnection>;
  tableWriter(): Promise<TableWriter>;
  snapshot(): Promise<SnapshotReader>;
  /** Appends a batch of the trail; rows already there are left as they are. */
  appendAuditBatch(
    events: readonly Selectable<AuditEventTable>[],
    subjects: readonly Selectable<AuditSubjectTable>[],
  ): Promise<void>;
  /**
   * Runs `erase` (the rows of `tables`), then removes what the rows leave in the store's files
   * where the engine can, while the service goes on serving from them.
   */
  scrubAfter(erase: () => Promise<void>, tables: readonly string[]): Promise<FilesScrubbed>;
}

/** An engine's store as opened, before its migrations run. */
export interface OpenedEngine {
  readonly db: Kysely<Database>;
  readonly location: string;
  readonly connection: EngineConnection;
  readonly direct?: DirectReader;
  /** Starts the watch that announces changes of reference data on `channel`, where the engine has one. */
  readonly watch?: (channel: string) => StartWatch;
}

export interface OpenOptions {
  /** Told how long each compiled read took, in ms. */
  readonly queryTook?: (ms: number) => void;
  /** kysely's log, for the other queries. */
  readonly queryLog?: KyselyConfig['log'];
  /** Connections held at most, for an engine that pools them. */
  readonly poolSize?: number;
}

/**
 * One database engine behind one door: how its store is opened, found, named, backed up and
 * restored. `src/store/sqlite/` and `src/store/postgres/` each give one; `engines.ts` picks the
 * settings' one. Nothing outside the store asks which it is.
 */
export interface EngineDriver {
  readonly engine: Engine;
  open(settings: EngineSettings, options: OpenOptions): OpenedEngine;
  /** The store's address for logs and messages: the file's absolute path, or the URL without its password. */
  location(settings: EngineSettings): string;
  /** Whether a store is there, looked for without creating one. */
  exists(settings: EngineSettings): Promise<boolean>;
  /** The setting that says where the store is, as a message names it. */
  setting(settings: EngineSettings): string;
  /** The files the live store is made of (a backup search leaves them out). */
  liveFiles(settings: EngineSettings): string[];
  readonly backups: BackupFormat;
  /** Where the stores of a district's schools are kept beside the deployment's own. */
  readonly schools: SchoolStores;
}

/**
 * The stores of a district's schools on one engine: each school's store is its own (a file in
 * its folder, or a schema in the deployment's database), opened as any store is, with the settings
 * `settingsOf` gives.
 */
export interface SchoolStores {
  /** The settings of the store of the school `sourcedId`, whose own files (key, journal) are in `folder`. */
  settingsOf(deployment: EngineSettings, sourcedId: string, folder: string): EngineSettings;
  /** Where the school's store is, for the operator: its file, or its schema and database. */
  where(settings: EngineSettings): string;
  /** How the name of an archive of a school's store ends. */
  readonly archiveSuffix: string;
  /** Makes room for the school's store, before it is first opened (and migrated). */
  make(settings: EngineSettings): Promise<void>;
  /** Whether the school's store is there (a removal cut short may have removed it already). */
  exists(settings: EngineSettings): Promise<boolean>;
  /** Removes the school's store whole: no file, table or schema of it is left. */
  remove(settings: EngineSettings): Promise<void>;
}

/** The backups an engine writes, and how they come back. */
export interface BackupFormat {
  /** What a backup is, for the operator: how it was made and checked. */
  readonly kind: string;
  /** How a backup file begins. */
  readonly signature: Buffer;
  /** Writes a backup of the store the settings name into `target`, a new private file. */
  write(settings: EngineSettings, target: string): Promise<void>;
  /**
   * Restores the backup `file` into the store the settings name (of this engine), replacing what
   * it holds; undefined when the backup is read as a store instead (`read`).
   */
  readonly restoreInPlace?: (settings: EngineSettings, file: string) => Promise<void>;
  /** The settings of a store to read the backup `file` as, made in `folder` (a private copy); see restoreInPlace. */
  readonly readAs?: (file: string, folder: string) => EngineSettings;
}

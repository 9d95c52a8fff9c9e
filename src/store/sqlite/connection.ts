import type BetterSqlite3 from 'better-sqlite3';
import type { EngineConnection } from '../engine-driver';
import { appendSqliteAuditBatch } from './audit-batch';
import { sqliteBulkWriter } from './bulk-writer';
import { sqliteImportConnection } from './import-connection';
import { scrubSqliteFiles } from './scrub-files';
import { sqliteSnapshot } from './snapshot-reader';
import { sqliteTableWriter } from './table-writer';

/** The driver's work on the embedded store, all on the store's one better-sqlite3 connection. */
export function sqliteConnection(database: BetterSqlite3.Database): EngineConnection {
  return {
    bulkWriter: () => sqliteBulkWriter(database),
    importConnection: async () => sqliteImportConnection(database),
    tableWriter: async () => sqliteTableWriter(database),
    snapshot: async () => sqliteSnapshot(database),
    appendAuditBatch: async (events, subjects) => appendSqliteAuditBatch(database, events, subjects),
    scrubAfter: (erase) => scrubSqliteFiles(database, erase),
  };
}

import type BetterSqlite3 from 'better-sqlite3';
import { BATCH_ROWS, quoted, type Row, type SnapshotReader } from '../copy/snapshot-reader';

/**
 * SQLite: one read transaction on the store's connection; WAL lets the service write meanwhile
 * without changing what this transaction sees.
 */
export function sqliteSnapshot(database: BetterSqlite3.Database): SnapshotReader {
  database.exec('begin');
  return {
    count: async (table) => Number((database.prepare(`select count(*) as n from ${quoted(table)}`).get() as Row).n),
    async *batches(table) {
      let batch: Row[] = [];
      for (const row of database.prepare(`select * from ${quoted(table)}`).iterate() as Iterable<Row>) {
        batch.push(row);
        if (batch.length === BATCH_ROWS) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
    close: async () => {
      if (database.inTransaction) database.exec('commit');
    },
  };
}

import type { PoolClient } from 'pg';
import type { Store } from '../open-store';

export type Row = Record<string, unknown>;

/** One consistent moment of a store, read table by table in batches while it may go on serving. */
export interface SnapshotReader {
  count(table: string): Promise<number>;
  batches(table: string): AsyncIterable<Row[]>;
  close(): Promise<void>;
}

const BATCH_ROWS = 2_000;

/** A table or column name as an SQL identifier (the names come from the store's own catalog). */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * SQLite: one read transaction on the store's connection; WAL lets the service write meanwhile
 * without changing what this transaction sees.
 */
function sqliteSnapshot(store: Store & { connection: { engine: 'sqlite' } }): SnapshotReader {
  const { database } = store.connection;
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

/** PostgreSQL: a repeatable-read, read-only transaction, each table read through a cursor. */
async function postgresSnapshot(store: Store & { connection: { engine: 'postgres' } }): Promise<SnapshotReader> {
  const client: PoolClient = await store.connection.pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
  } catch (error) {
    client.release();
    throw error;
  }
  return {
    count: async (table) => Number((await client.query(`select count(*) as n from ${quoted(table)}`)).rows[0].n),
    async *batches(table) {
      await client.query(`declare copy_rows no scroll cursor for select * from ${quoted(table)}`);
      try {
        for (;;) {
          const { rows } = await client.query<Row>(`fetch ${BATCH_ROWS} from copy_rows`);
          if (rows.length === 0) break;
          yield rows;
        }
      } finally {
        await client.query('close copy_rows');
      }
    },
    close: async () => {
      try {
        await client.query('commit');
      } finally {
        client.release();
      }
    },
  };
}

export function openSnapshot(store: Store): Promise<SnapshotReader> {
  return store.connection.engine === 'sqlite'
    ? Promise.resolve(sqliteSnapshot(store as Store & { connection: { engine: 'sqlite' } }))
    : postgresSnapshot(store as Store & { connection: { engine: 'postgres' } });
}

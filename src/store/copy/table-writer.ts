import type { PoolClient } from 'pg';
import type { Store } from '../open-store';
import { quoted, type Row } from './snapshot-reader';

/** Writes whole rows into a store inside one transaction, committed only once every count is checked. */
export interface TableWriter {
  clear(table: string): Promise<void>;
  insert(table: string, rows: readonly Row[]): Promise<void>;
  count(table: string): Promise<number>;
  /** Moves an identity column's sequence past the ids copied in (PostgreSQL; SQLite takes the next rowid). */
  continueIds(table: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;

function sqliteWriter(store: Store & { connection: { engine: 'sqlite' } }): TableWriter {
  const { database } = store.connection;
  database.exec('begin immediate');
  return {
    clear: async (table) => void database.prepare(`delete from ${quoted(table)}`).run(),
    insert: async (table, rows) => {
      const columns = Object.keys(rows[0] ?? {});
      const places = columns.map(() => '?').join(', ');
      const insert = database.prepare(
        `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values (${places})`,
      );
      for (const row of rows) insert.run(columns.map((column) => row[column]));
    },
    count: async (table) => Number((database.prepare(`select count(*) as n from ${quoted(table)}`).get() as Row).n),
    continueIds: async () => undefined,
    commit: async () => void database.exec('commit'),
    rollback: async () => {
      if (database.inTransaction) database.exec('rollback');
    },
  };
}

async function postgresWriter(store: Store & { connection: { engine: 'postgres' } }): Promise<TableWriter> {
  const client: PoolClient = await store.connection.pool.connect();
  await client.query('begin');
  const release = () => client.release();
  return {
    clear: async (table) => void (await client.query(`delete from ${quoted(table)}`)),
    insert: async (table, rows) => {
      const columns = Object.keys(rows[0] ?? {});
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length)));
      for (let start = 0; start < rows.length; start += perStatement) {
        const chunk = rows.slice(start, start + perStatement);
        const values: unknown[] = [];
        const tuples = chunk.map((row) => {
          const places = columns.map((column) => {
            values.push(row[column]);
            return `$${values.length}`;
          });
          return `(${places.join(', ')})`;
        });
        await client.query(
          `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${tuples.join(', ')}`,
          values,
        );
      }
    },
    count: async (table) => Number((await client.query(`select count(*) as n from ${quoted(table)}`)).rows[0].n),
    continueIds: async (table) => {
      const { rows } = await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns
          where table_schema = current_schema() and table_name = $1 and is_identity = 'YES'`,
        [table],
      );
      for (const { column_name: column } of rows) {
        const id = quoted(column);
        await client.query(
          `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${id}), 1), max(${id}) is not null)
             from ${quoted(table)}`,
          [table, column],
        );
      }
    },
    commit: async () => {
      try {
        await client.query('commit');
      } finally {
        release();
      }
    },
    rollback: async () => {
      try {
        await client.query('rollback');
      } finally {
        release();
      }
    },
  };
}

export function openTableWriter(store: Store): Promise<TableWriter> {
  return store.connection.engine === 'sqlite'
    ? Promise.resolve(sqliteWriter(store as Store & { connection: { engine: 'sqlite' } }))
    : postgresWriter(store as Store & { connection: { engine: 'postgres' } });
}

import type { Pool, PoolClient } from 'pg';
import type { TableWriter } from '../copy/table-writer';
import { quoted } from '../copy/snapshot-reader';

/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;

/** Writes a copy on PostgreSQL: one client of the pool, in one transaction. */
export async function postgresTableWriter(pool: Pool): Promise<TableWriter> {
  const client: PoolClient = await pool.connect();
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

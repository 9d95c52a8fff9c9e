import type { PoolClient } from 'pg';
import type { ImportConnection } from '../roster/import-connection';
import { postgresEngine } from './engine';

/** Bound parameters per statement, under PostgreSQL's 65,535. */
const POSTGRES_PARAMETERS = 30_000;

function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** An import's connection on PostgreSQL: one client of the pool, held until it is released. */
export function postgresImportConnection(client: PoolClient): ImportConnection {
  const run = async (sql: string, parameters: readonly unknown[] = []) =>
    (await client.query(numbered(sql), [...parameters])).rowCount ?? 0;
  return {
    engine: postgresEngine,
    run,
    async all<Row>(sql: string, parameters: readonly unknown[] = []) {
      return (await client.query(numbered(sql), [...parameters])).rows as Row[];
    },
    async insert(table, columns, rows, suffix = '') {
      const perStatement = Math.max(1, Math.floor(POSTGRES_PARAMETERS / columns.length));
      for (let start = 0; start < rows.length; start += perStatement) {
        const chunk = rows.slice(start, start + perStatement);
        const values: unknown[] = [];
        const tuples = chunk.map((row) => `(${row.map((value) => `$${values.push(value)}`).join(', ')})`);
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${suffix}`, values);
      }
    },
    staging: (write) => write(),
    // The foreign keys the school's rows may break for a while are deferrable (migration 005).
    async beginSchoolChange() {
      await run('BEGIN');
      await run('SET CONSTRAINTS ALL DEFERRED');
    },
    // The deferred constraints are checked by the commit itself.
    async settleSchoolChange(tablesWithIds) {
      for (const table of tablesWithIds) {
        await run(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), ` +
            `COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
        );
      }
      return undefined;
    },
    async commitSchoolChange() {
      await run('COMMIT');
    },
    async abortSchoolChange() {
      await run('ROLLBACK').catch(() => 0);
    },
    async release() {
      client.release();
    },
  };
}

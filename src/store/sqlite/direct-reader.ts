import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { performance } from 'node:perf_hooks';
import type { DirectReader } from '../session';

/**
 * Runs a compiled read on the embedded store at once, without kysely's executor: its connection
 * lock and the promises around it cost more than a point lookup (a few µs a query). A read is
 * taken this way only when no transaction holds the connection; otherwise it goes through kysely
 * and waits for the transaction, so that it never sees another call's uncommitted writes.
 */
export function sqliteDirectReader(
  database: BetterSqlite3.Database,
  statements: SqliteDatabase,
  queryTook: ((ms: number) => void) | undefined,
): DirectReader {
  return {
    all: (sql, parameters) => {
      if (database.inTransaction) return undefined;
      const statement = statements.prepare(sql);
      if (!statement.reader) return undefined;
      if (!queryTook) return statement.all(parameters) as unknown[];
      const started = performance.now();
      const rows = statement.all(parameters) as unknown[];
      queryTook(performance.now() - started);
      return rows;
    },
  };
}

import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';

/** An empty SQLite database in memory, gone when it is destroyed. */
export function sqliteInMemory(): Kysely<unknown> {
  return new Kysely<unknown>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
}

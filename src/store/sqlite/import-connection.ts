import type BetterSqlite3 from 'better-sqlite3';
import type { ImportConnection } from '../roster/import-connection';
import { sqliteEngine } from './engine';

/** An import's connection on SQLite: the store's own, its statements prepared once. */
export function sqliteImportConnection(database: BetterSqlite3.Database): ImportConnection {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const run = async (sql: string, parameters: readonly unknown[] = []) => {
    // A pragma answers with rows; anything else reports the rows it changed.
    const statement = prepare(sql);
    return statement.reader ? statement.all(...parameters).length : statement.run(...parameters).changes;
  };
  return {
    engine: sqliteEngine,
    run,
    async all<Row>(sql: string, parameters: readonly unknown[] = []) {
      return prepare(sql).all(...parameters) as Row[];
    },
    async insert(table, columns, rows, suffix = '') {
      if (rows.length === 0) return;
      const statement = prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${suffix}`,
      );
      for (const row of rows) statement.run(...row);
    },
    // One transaction per batch, which takes no lock on the school (temporary tables are the connection's).
    async staging(write) {
      await run('BEGIN');
      await write();
      await run('COMMIT');
    },
    // Foreign keys are checked once before the commit rather than row by row (a bulk replace
    // deletes and re-inserts parents).
    async beginSchoolChange() {
      await run('PRAGMA foreign_keys = OFF');
      await run('BEGIN IMMEDIATE');
    },
    // SQLite takes the next rowid after the largest: no sequence to move.
    async settleSchoolChange() {
      const violations = prepare('PRAGMA foreign_key_check').all() as Array<{ table: string; parent: string }>;
      if (violations.length === 0) return undefined;
      return { count: violations.length, table: violations[0].table, parent: violations[0].parent };
    },
    async commitSchoolChange() {
      await run('COMMIT');
      await run('PRAGMA foreign_keys = ON');
    },
    async abortSchoolChange() {
      await run('ROLLBACK').catch(() => 0);
      await run('PRAGMA foreign_keys = ON');
    },
    async release() {},
  };
}

import type BetterSqlite3 from 'better-sqlite3';
import type { BulkWriter } from '../bulk-writer';

/** SQLite: one prepared statement per table and columns, all inside one transaction. */
export function sqliteBulkWriter(database: BetterSqlite3.Database): BulkWriter {
  const statements = new Map<string, BetterSqlite3.Statement>();
  database.exec('BEGIN');
  return {
    async insert(table, rows) {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]);
      const key = `${table}(${columns.join(',')})`;
      let statement = statements.get(key);
      if (!statement) {
        statement = database.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
        );
        statements.set(key, statement);
      }
      for (const row of rows) statement.run(row);
    },
    async finish() {
      database.exec('COMMIT');
    },
    async abort() {
      if (database.inTransaction) database.exec('ROLLBACK');
    },
  };
}

import type BetterSqlite3 from 'better-sqlite3';
import type { TableWriter } from '../copy/table-writer';
import { quoted, type Row } from '../copy/snapshot-reader';

/** Writes a copy on SQLite: the store's own connection, in one write transaction. */
export function sqliteTableWriter(database: BetterSqlite3.Database): TableWriter {
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

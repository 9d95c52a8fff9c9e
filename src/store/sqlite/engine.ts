import { sql } from 'kysely';
import { countedRows, type Engine, type StoreColumn, type TableReference } from '../engine';

/** SQLite's spelling of the SQL the two engines differ on (see ../engine.ts). */
export const sqliteEngine: Engine = {
  name: 'sqlite',
  title: 'SQLite',
  demoOnFirstStart: true,

  jsonRows: (fields) => sql`json_group_array(json_array(${fields}))`,
  // The single writer makes a claim's UPDATE atomic already.
  claimLock: sql``,
  // The single writer serialises counts already.
  lockBuckets: async () => undefined,
  sizeBytes: async (db) => {
    const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes
      from pragma_page_count(), pragma_page_size()`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  },
  // One store a file: its tables are the file's.
  storeSchema: async () => undefined,
  tableNames: async (db) => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master
      where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(db);
    return rows.map((row) => row.name);
  },
  foreignKeys: async (db) => {
    const { rows } = await sql<TableReference>`select m.name as "table", f."table" as "references"
      from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db);
    return rows;
  },
  columns: async (db) => {
    const { rows } = await sql<StoreColumn>`select m.name as "table", p.name as "column"
      from sqlite_master m, pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'`.execute(db);
    return rows;
  },
  // Every process sharing the file reads the version the triggers moved on.
  announceReferenceChange: async () => undefined,

  temporaryTable: 'TEMP',
  floatType: 'REAL',
  jsonKeys: (table, column, where) =>
    `SELECT DISTINCT j.key AS name FROM ${table} f, json_each(f.${column}) j WHERE ${where} ORDER BY 1`,
  jsonText: (column) => `json_extract(${column}, ?)`,
  // A JSON path; a key's quotes cannot be escaped in one, and no OneRoster column has them.
  jsonKeyParameter: (key) => `$."${key.replace(/"/g, '')}"`,

  // An INTEGER PRIMARY KEY is the rowid, which SQLite gives out.
  identityPrimaryKey: (column) => column.primaryKey(),
  binaryType: 'blob',
  // The rows live in the primary key itself: one B-tree rather than a table and an index.
  appendOnlyTable: sql`without rowid`,
  // Foreign keys are switched off for an import's transaction and checked once before its commit.
  deferrableReferences: async () => undefined,
  countChanges: async (db, tables) => {
    for (const table of tables) {
      for (const event of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.id(`${table}_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
          begin update reference_versions set version = version + 1 where id = 1; end`.execute(db);
      }
    }
  },
  // Row triggers (SQLite has no others): the rows `except` names are passed over by the trigger's WHEN.
  countRowChanges: async (db, counter, tables) => {
    for (const counted of tables) {
      const { table } = counted;
      for (const event of ['insert', 'update', 'delete']) {
        const condition = countedRows(counted, event === 'delete' ? 'old' : 'new');
        const when = condition ? sql`when ${condition}` : sql``;
        await sql`create trigger ${sql.id(`${table}_${event}_${counter}`)} after ${sql.raw(event)}
          on ${sql.table(table)} ${when}
          begin update ${sql.table(counter)} set version = version + 1 where id = 1; end`.execute(db);
      }
    }
  },
  // SQLite cannot drop a NOT NULL: the table is rebuilt, foreign keys off meanwhile, as SQLite's
  // ALTER TABLE procedure has it (the tables that point at it keep pointing at it by name).
  dropNotNull: async (db, _table, _column, rebuild) => {
    await sql`PRAGMA foreign_keys = OFF`.execute(db);
    try {
      await rebuild();
    } finally {
      await sql`PRAGMA foreign_keys = ON`.execute(db);
    }
  },
  withSecureDelete: async (db, work) => {
    await sql`PRAGMA secure_delete = ON`.execute(db);
    try {
      return await work();
    } finally {
      await sql`PRAGMA secure_delete = OFF`.execute(db);
    }
  },
};

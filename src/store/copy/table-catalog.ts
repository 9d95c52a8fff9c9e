import { type Kysely, sql } from 'kysely';
import type { Store } from '../open-store';

/**
 * The tables a store holds, read from the database itself rather than listed in code, so that a
 * copy or a restore carries every table, those a later migration adds included. Left out: the
 * migrations' own record (each store migrates itself) and who is serving now (service_processes,
 * the live processes of the source, which the copy's own will write).
 */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock', 'service_processes']);

export interface TableReference {
  readonly table: string;
  readonly references: string;
}

async function tableNames(store: Store): Promise<string[]> {
  const db = store.db as unknown as Kysely<unknown>;
  const { rows } =
    store.engine === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.map((row) => row.name).filter((name) => !NOT_COPIED.has(name));
}

async function foreignKeys(store: Store): Promise<TableReference[]> {
  const db = store.db as unknown as Kysely<unknown>;
  const { rows } =
    store.engine === 'sqlite'
      ? await sql<TableReference>`select m.name as "table", f."table" as "references"
          from sqlite_master m, pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db)
      : await sql<TableReference>`select t.relname as "table", r.relname as "references"
          from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
          where c.contype = 'f' and t.relnamespace = current_schema()::regnamespace`.execute(db);
  return rows;
}

/** The store's tables, each after the tables it references, so that inserting in this order meets every foreign key. */
export async function tablesInDependencyOrder(store: Store): Promise<string[]> {
  const names = await tableNames(store);
  const needs = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { table, references } of await foreignKeys(store)) {
    if (table !== references && needs.has(references)) needs.get(table)?.add(references);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((name) => !placed.has(name) && [...(needs.get(name) ?? [])].every((n) => placed.has(n)));
    // A cycle of references (none in this schema) would leave tables unplaced: take them as they come.
    const next = ready.length > 0 ? ready : names.filter((name) => !placed.has(name));
    for (const name of next) {
      placed.add(name);
      ordered.push(name);
    }
  }
  return ordered;
}

export async function rowCount(store: Store, table: string): Promise<number> {
  const db = store.db as unknown as Kysely<unknown>;
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

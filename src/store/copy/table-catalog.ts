import { type Kysely, sql } from 'kysely';
import type { Store } from '../open-store';

/**
 * The tables a store holds, read from the database itself rather than listed in code, so that a
 * copy or a restore carries every table, those a later migration adds included. Left out: the
 * migrations' own record (each store migrates itself) and who is serving now (service_processes,
 * the live processes of the source, which the copy's own will write).
 */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock', 'service_processes']);

async function tableNames(store: Store): Promise<string[]> {
  const names = await store.engine.tableNames(store.db as unknown as Kysely<unknown>);
  return names.filter((name) => !NOT_COPIED.has(name));
}

/** The store's tables, each after the tables it references, so that inserting in this order meets every foreign key. */
export async function tablesInDependencyOrder(store: Store): Promise<string[]> {
  const names = await tableNames(store);
  const needs = new Map(names.map((name) => [name, new Set<string>()]));
  for (const { table, references } of await store.engine.foreignKeys(store.db as unknown as Kysely<unknown>)) {
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

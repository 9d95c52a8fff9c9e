import { sql } from 'kysely';
import { scratchStore } from '../engines';
import { migrateToLatest } from '../migrate';
import type { Store } from '../open-store';
import { openSnapshot } from './snapshot-reader';
import { tablesInDependencyOrder } from './table-catalog';
import { openTableWriter } from './table-writer';

export interface TableCount {
  readonly table: string;
  readonly rows: number;
}

/** What a store holds, for a message: "schools 1, students 120". */
export function holdingsText(holding: readonly TableCount[]): string {
  return holding.map(({ table, rows }) => `${table} ${rows.toLocaleString('en')}`).join(', ');
}

/** The target holds data of its own: nothing was written. Its message lists what it holds. */
export class TargetNotEmptyError extends Error {
  constructor(readonly holding: readonly TableCount[]) {
    super(holdingsText(holding));
  }
}

/**
 * The rows a store holds right after its migrations (a counter's first row): a store holding no
 * more than these is empty. Found by migrating a store in memory, so that a migration that seeds
 * a table later is known here without a list to keep.
 */
async function rowsOfANewStore(): Promise<Map<string, number>> {
  const { engine, db } = scratchStore();
  try {
    await migrateToLatest(db, engine);
    const counts = new Map<string, number>();
    for (const table of await engine.tableNames(db)) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
      counts.set(table, Number(rows[0]?.n ?? 0));
    }
    return counts;
  } finally {
    await db.destroy();
  }
}

/** What a store holds beyond a new store's rows, table by table; none when it is empty. */
export async function storeHoldings(store: Store): Promise<TableCount[]> {
  const fresh = await rowsOfANewStore();
  const reader = await openSnapshot(store);
  try {
    const holding: TableCount[] = [];
    for (const table of await tablesInDependencyOrder(store)) {
      const rows = await reader.count(table);
      if (rows > (fresh.get(table) ?? 0)) holding.push({ table, rows });
    }
    return holding;
  } finally {
    await reader.close();
  }
}

/**
 * Copies every table of `source` into `target` (either engine each), as one consistent moment of
 * the source read while it may go on serving, written in one transaction: the school, its ids,
 * the callers with their hashes and sealed secrets, the audit trail, the outbox and its delivery
 * state, the key's fingerprint, and any table a later migration adds. Ids are kept, so every
 * reference stays right. The count of every table is checked against the source's before the
 * transaction commits; a difference writes nothing. A target holding data is refused unless
 * `replace`, which deletes its rows first (in the same transaction).
 */
export async function copyStore(source: Store, target: Store, options: { replace: boolean }): Promise<TableCount[]> {
  const tables = await tablesInDependencyOrder(source);
  const targetTables = new Set(await tablesInDependencyOrder(target));
  const missing = tables.filter((table) => !targetTables.has(table));
  if (missing.length > 0) throw new Error(`the target has no table ${missing.join(', ')}: it is of another version`);
  if (!options.replace) {
    const holding = await storeHoldings(target);
    if (holding.length > 0) throw new TargetNotEmptyError(holding);
  }
  const reader = await openSnapshot(source);
  try {
    const writer = await openTableWriter(target);
    try {
      for (const table of [...targetTables].reverse()) await writer.clear(table);
      for (const table of tables) {
        for await (const rows of reader.batches(table)) await writer.insert(table, rows);
        await writer.continueIds(table);
      }
      const counts: TableCount[] = [];
      const differences: string[] = [];
      for (const table of tables) {
        const [read, written] = [await reader.count(table), await writer.count(table)];
        counts.push({ table, rows: written });
        if (read !== written) differences.push(`${table}: ${read} in the source, ${written} copied`);
      }
      if (differences.length > 0) throw new Error(`the counts differ, nothing was written: ${differences.join('; ')}`);
      await writer.commit();
      return counts;
    } catch (error) {
      await writer.rollback();
      throw error;
    }
  } finally {
    await reader.close();
  }
}

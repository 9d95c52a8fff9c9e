import { type Kysely, sql } from 'kysely';
import type { Store } from '../open-store';
import { processesSeenSince } from '../queries/service-processes';
import { type ErasurePlan, type ErasureRecord, eraseRows, tablesOf } from './subject-erasure';

/** How recently a serving process must have been seen to count as serving. */
const SERVING_WITHIN_MS = 60_000;

/**
 * A VACUUM run by one process while another reads the same SQLite file has the other's connection
 * report the file as malformed (seen with the service's cached statements), so it is run only when
 * no other process serves from the store. Without it, secure_delete has still zeroed what the
 * erasure deleted; what it leaves are copies from before (a row an import rewrote), which the next
 * erasure with the service stopped, or `VACUUM` by hand, removes.
 */
async function othersServing(store: Store): Promise<boolean> {
  const since = new Date(Date.now() - SERVING_WITHIN_MS).toISOString();
  return (await processesSeenSince(store, since)).some((serving) => serving.pid !== process.pid);
}

const VACUUM_LEFT = 'VACUUM: left for when no process serves from the store (the service runs)';

/** What became of the store's files after the rows went: the steps taken, and those the store refused. */
export interface FilesScrubbed {
  readonly done: readonly string[];
  readonly refused: readonly string[];
}

/**
 * Erases the plan's rows and then the bytes they leave in the store's files.
 *
 * SQLite: with secure_delete, every page freed or rewritten is overwritten with zeros; VACUUM
 * rebuilds the file without free pages, and wal_checkpoint(TRUNCATE) copies the log into the file
 * and empties it (a reader holding an old snapshot makes it wait: it is retried once).
 *
 * PostgreSQL: deleted rows stay in their pages as dead tuples until a vacuum; VACUUM FULL writes
 * the touched tables (and their indexes and TOAST) into new files and removes the old ones, ANALYZE
 * first replaces the statistics, which keep sampled values of columns. CHECKPOINT and a switch of
 * the write-ahead log let PostgreSQL remove the segments that held the rows, which it does (rather
 * than reusing them with their old bytes) when wal_recycle is off. A role without the rights to
 * checkpoint or switch the log has those steps refused, and they are reported.
 */
export async function eraseFromStoreFiles(
  store: Store,
  plan: ErasurePlan,
  record: ErasureRecord,
): Promise<FilesScrubbed> {
  if (store.connection.engine === 'sqlite') {
    const database = store.connection.database;
    database.pragma('secure_delete = ON');
    await eraseRows(store, plan, record);
    const done = ['secure_delete'];
    const refused: string[] = [];
    if (await othersServing(store)) refused.push(VACUUM_LEFT);
    else {
      database.exec('VACUUM');
      done.push('VACUUM');
    }
    const busy = () => (database.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy !== 0;
    if (busy()) await new Promise((resolve) => setTimeout(resolve, 200));
    if (busy()) refused.push('wal_checkpoint(TRUNCATE): a reader held the log; run the erasure again');
    else done.push('wal_checkpoint(TRUNCATE)');
    return { done, refused };
  }
  await eraseRows(store, plan, record);
  const db = store.db as unknown as Kysely<unknown>;
  const done: string[] = [];
  const refused: string[] = [];
  const step = async (name: string, statement: ReturnType<typeof sql>) => {
    try {
      await statement.execute(db);
      done.push(name);
    } catch (error) {
      refused.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const tables = tablesOf(plan).map((table) => sql.table(table));
  await step('ANALYZE', sql`analyze ${sql.join(tables)}`);
  await step('VACUUM FULL', sql`vacuum full ${sql.join(tables)}`);
  await step('VACUUM FULL pg_statistic', sql`vacuum full pg_catalog.pg_statistic`);
  await step('CHECKPOINT', sql`checkpoint`);
  await step('pg_switch_wal', sql`select pg_switch_wal()`);
  await step('CHECKPOINT', sql`checkpoint`);
  return { done, refused };
}

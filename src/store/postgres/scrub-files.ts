import { type Kysely, sql } from 'kysely';
import type { FilesScrubbed } from '../engine-driver';

/**
 * Deleted rows stay in their pages as dead tuples until a vacuum; VACUUM FULL writes the touched
 * tables (and their indexes and TOAST) into new files and removes the old ones, ANALYZE first
 * replaces the statistics, which keep sampled values of columns. CHECKPOINT and a switch of the
 * write-ahead log let PostgreSQL remove the segments that held the rows, which it does (rather than
 * reusing them with their old bytes) when wal_recycle is off. A role without the rights to
 * checkpoint or switch the log has those steps refused, and they are reported.
 */
export async function scrubPostgresFiles(
  db: Kysely<unknown>,
  erase: () => Promise<void>,
  erasedTables: readonly string[],
): Promise<FilesScrubbed> {
  await erase();
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
  const tables = erasedTables.map((table) => sql.table(table));
  await step('ANALYZE', sql`analyze ${sql.join(tables)}`);
  await step('VACUUM FULL', sql`vacuum full ${sql.join(tables)}`);
  await step('VACUUM FULL pg_statistic', sql`vacuum full pg_catalog.pg_statistic`);
  await step('CHECKPOINT', sql`checkpoint`);
  await step('pg_switch_wal', sql`select pg_switch_wal()`);
  await step('CHECKPOINT', sql`checkpoint`);
  return { done, refused };
}

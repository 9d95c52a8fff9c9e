import type { Kysely } from 'kysely';
import type { StoreColumn } from '../engine';
import type { Session } from '../session';

/** The migrator's own record of applied migrations: names of migrations, nothing else. */
export const MIGRATOR_TABLES: ReadonlySet<string> = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Every column of every table the store really has, read from its catalog rather than from the
 * schema's types, so that a migration adding one shows here whether or not it was declared.
 */
export async function storeColumns(session: Session): Promise<StoreColumn[]> {
  const rows = await session.engine.columns(session.db as unknown as Kysely<unknown>);
  return rows.filter((row) => !MIGRATOR_TABLES.has(row.table));
}

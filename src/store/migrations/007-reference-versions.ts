import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/** The tables whose rows every process keeps in memory (see store/reference-data.ts). */
export const REFERENCE_TABLES = ['academic_years', 'terms', 'note_types', 'absence_types'] as const;

/** The channel on which PostgreSQL tells every listening process that reference data changed. */
export const REFERENCE_CHANNEL = 'school_reference_changed';

/**
 * A counter that any change to the reference tables moves on, whoever makes it (the service, an
 * import, an operator with psql), so that every process sharing the store can tell its copy is
 * out of date. On PostgreSQL the trigger also notifies REFERENCE_CHANNEL, so that listening
 * processes learn of it without asking.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('reference_versions')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await sql`insert into reference_versions (id, version) values (1, 1)`.execute(db);
  await engine.countChanges(db, REFERENCE_TABLES, REFERENCE_CHANNEL);
}

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
  if (engine === 'postgres') {
    await sql`create function bump_reference_version() returns trigger language plpgsql as $$
      begin
        update reference_versions set version = version + 1 where id = 1;
        perform pg_notify(${sql.lit(REFERENCE_CHANNEL)}, '');
        return null;
      end $$`.execute(db);
    for (const table of REFERENCE_TABLES) {
      await sql`create trigger ${sql.id(`${table}_changed`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_reference_version()`.execute(db);
    }
    return;
  }
  for (const table of REFERENCE_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.id(`${table}_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin update reference_versions set version = version + 1 where id = 1; end`.execute(db);
    }
  }
}

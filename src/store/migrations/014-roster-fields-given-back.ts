import type { Kysely } from 'kysely';

/**
 * The OneRoster fields of each imported row, kept so that an export gives back the bundle the
 * school gave: what the store does not model (email, location, the district org, grading periods,
 * the enrolments of students in scheduled classes, metadata.* ...). One row per file and
 * sourcedId, the row's non-empty fields as a JSON object keyed by the bundle's header names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roster_fields')
    .addColumn('file', 'text', (column) => column.notNull())
    .addColumn('sourced_id', 'text', (column) => column.notNull())
    .addColumn('fields', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('roster_fields_pk', ['file', 'sourced_id'])
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * The record of each erasure of a person's data (school-service subject erase): who asked, when,
 * why, and which id went. It keeps no name, birth date or phone number: the id alone says which
 * record the audit trail's earlier entries were about, and nothing more.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subject_erasures')
    .addColumn('erased_at', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject_id', 'integer', (column) => column.notNull())
    .addColumn('erased_by', 'text', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('guardians_erased', 'integer', (column) => column.notNull())
    .execute();
}

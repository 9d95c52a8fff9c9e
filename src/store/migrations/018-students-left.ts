import type { Kysely } from 'kysely';

/**
 * When each student was first seen to have left (no active enrolment left), so that the retention
 * after leaving (RETENTION_AFTER_LEAVING_DAYS) can count days from it; and one row per day the
 * retention ran, which only one process a day can insert: the day's lease across nodes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('students_left')
    .addColumn('student_id', 'integer', (column) => column.primaryKey())
    .addColumn('left_on', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('retention_runs')
    .addColumn('day', 'text', (column) => column.primaryKey())
    .addColumn('node', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('erased', 'integer', (column) => column.notNull())
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * What came of comparing this service's answers with the legacy service's while a school moves
 * from it: counts per day, operation, binding and outcome, and per differing field path a count
 * and one example pair (personal data masked before it is stored). Counted by day so that a
 * report can start at a date and old days can be deleted (SHADOW_KEEP_DAYS) in one statement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shadow_comparisons')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('operation', 'text', (column) => column.notNull())
    .addColumn('binding', 'text', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('shadow_comparisons_key', ['day', 'operation', 'binding', 'outcome'])
    .execute();
  await db.schema
    .createTable('shadow_differences')
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('operation', 'text', (column) => column.notNull())
    .addColumn('binding', 'text', (column) => column.notNull())
    .addColumn('path', 'text', (column) => column.notNull())
    .addColumn('noisy', 'integer', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addColumn('local_example', 'text', (column) => column.notNull())
    .addColumn('legacy_example', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('shadow_differences_key', ['day', 'operation', 'binding', 'path', 'noisy'])
    .execute();
}

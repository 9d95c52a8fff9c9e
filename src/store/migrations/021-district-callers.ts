import type { Kysely } from 'kysely';

/**
 * A district caller: one of the deployment's own store that may call every school of the
 * deployment (1), rather than the school of this store alone (0, every caller before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('callers')
    .addColumn('all_schools', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

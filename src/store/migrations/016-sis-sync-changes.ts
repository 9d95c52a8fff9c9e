import type { Kysely } from 'kysely';

/**
 * A sync's figures per kind (the import's added, changed and deleted by table, marks included, as
 * JSON) and the records the provider sent twice, counted apart from the warnings: what /status
 * and /metrics show of the last sync.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sis_sync_runs')
    .addColumn('changes', 'text', (column) => column.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('sis_sync_runs')
    .addColumn('duplicates', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

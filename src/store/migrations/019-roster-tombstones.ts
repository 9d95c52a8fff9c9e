import type { Kysely } from 'kysely';

/**
 * The records an import, a sync or an erasure deleted, by their kind and sourcedId, with the time
 * they went: what the OneRoster provider answers a delta consumer as `tobedeleted`, and nothing
 * else of the record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roster_tombstones')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('sourced_id', 'text', (column) => column.notNull())
    .addColumn('deleted_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('roster_tombstones_pk', ['kind', 'sourced_id'])
    .execute();
  await db.schema.createIndex('roster_tombstones_deleted_at').on('roster_tombstones').column('deleted_at').execute();
}

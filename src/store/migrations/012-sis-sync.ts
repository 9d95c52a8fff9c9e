import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/**
 * The OneRoster REST sync's state, shared by every node of the store: one row holding the lease
 * (who syncs now, until when: a node that dies mid-sync holds it no longer than its lease) and the
 * time of the last successful sync, from which the next delta asks for changes; and a row per sync
 * for the status page.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('sis_sync_state')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('lease_holder', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('synced_until', 'text')
    .execute();
  await sql`insert into sis_sync_state (id) values (1)`.execute(db);
  await db.schema
    .createTable('sis_sync_runs')
    .addColumn('started_at', 'text', (column) => column.primaryKey())
    .addColumn('finished_at', 'text', (column) => column.notNull())
    .addColumn('node', 'text', (column) => column.notNull())
    .addColumn('mode', 'text', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('records', 'integer', (column) => column.notNull())
    .addColumn('added', 'integer', (column) => column.notNull())
    .addColumn('changed', 'integer', (column) => column.notNull())
    .addColumn('deleted', 'integer', (column) => column.notNull())
    .addColumn('warnings', 'integer', (column) => column.notNull())
    .addColumn('problems', 'integer', (column) => column.notNull())
    .addColumn('requests', 'integer', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .execute();
}

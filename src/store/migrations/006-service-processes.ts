import type { Kysely } from 'kysely';
import type { Engine } from '../engine';

/**
 * The processes serving from this store, each seen by a row it refreshes every few seconds: nodes
 * on several machines sharing one PostgreSQL know of each other only through the store, and the
 * status page shows who is serving. A process that stops deletes its row; one that died leaves a
 * row no longer refreshed, which the others delete after a day.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('service_processes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('node', 'text', (column) => column.notNull())
    .addColumn('pid', 'integer', (column) => column.notNull())
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('seen_at', 'text', (column) => column.notNull())
    .execute();
}

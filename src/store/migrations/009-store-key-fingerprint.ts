import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/**
 * The fingerprint of the key that seals the store's data (outbox payloads, callers' digest
 * secrets): one row, written by the first process that seals or opens with a key, so that a
 * process or command holding another key is refused before it seals something nobody can open.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('store_key')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('fingerprint', 'text', (column) => column.notNull())
    .addColumn('recorded_at', 'text', (column) => column.notNull())
    .execute();
}

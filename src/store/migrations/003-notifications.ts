import type { Kysely } from 'kysely';
import type { Engine } from '../engine';

/**
 * The notification outbox and the rate-limit ledger. An accepted SMS or push is a row of
 * outbox_messages written in the transaction that accepts it; the delivery worker claims due rows
 * with a lease, so a crashed worker's rows become due again and nothing accepted is lost. The
 * idempotency key is unique, so a repeated request cannot queue the same notification twice.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('outbox_messages')
    .addColumn('id', 'integer', (column) => engine.identityPrimaryKey(column))
    .addColumn('reference', 'text', (column) => column.notNull())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('recipient', 'text', (column) => column.notNull())
    .addColumn('device_id', 'integer', (column) => column.references('devices.id'))
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('idempotency_key', 'text', (column) => column.unique())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_messages_due')
    .on('outbox_messages')
    .columns(['state', 'next_attempt_at'])
    .execute();

  // AuthCode looks every number up in the school directory.
  for (const table of ['guardians', 'students', 'teachers'])
    await db.schema.createIndex(`${table}_phone`).on(table).column('phone').execute();

  await db.schema
    .createTable('rate_limit_events')
    .addColumn('bucket', 'text', (column) => column.notNull())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limit_events_bucket')
    .on('rate_limit_events')
    .columns(['bucket', 'occurred_at'])
    .execute();
}

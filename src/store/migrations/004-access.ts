import type { Kysely } from 'kysely';
import type { Engine } from '../engine';

/**
 * Who may call, and who saw what. Callers are named, recognised by network and/or secret (kept as
 * a scrypt hash; a copy sealed with the service's key only for callers that use WS-Security's
 * PasswordDigest, which needs the secret itself), with the operations they may call and a scope.
 * WS-Security nonces seen recently refuse replays across every process sharing the store. The
 * audit trail is append-only: each call that returned personal data or caused a message or
 * document, and each student, teacher and class it touched.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('callers')
    .addColumn('id', 'integer', (column) => engine.identityPrimaryKey(column))
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('networks', 'text', (column) => column.notNull())
    .addColumn('secret_hash', 'text')
    .addColumn('digest_secret', 'text')
    .addColumn('operations', 'text', (column) => column.notNull())
    .addColumn('scope', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('changed_at', 'text', (column) => column.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('ws_security_nonces')
    .addColumn('nonce_hash', 'text', (column) => column.primaryKey())
    .addColumn('seen_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('ws_security_nonces_seen').on('ws_security_nonces').column('seen_at').execute();

  // The audit trail takes a row per call that showed someone's data, thousands a second on a busy
  // service: its tables are laid out for appending. Ids begin with the time, so new rows go at the
  // end of the primary key; on SQLite the rows live in that key itself (WITHOUT ROWID), one B-tree
  // rather than a table and an index; a subject is written with its event and deleted with it by
  // the trail's own writer, so no foreign key is checked on every row.
  const appendOnly = engine.appendOnlyTable;
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .addColumn('caller', 'text', (column) => column.notNull())
    .addColumn('address', 'text', (column) => column.notNull())
    .addColumn('operation', 'text', (column) => column.notNull())
    .addColumn('binding', 'text', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('teachers', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('calls', 'integer', (column) => column.notNull().defaultTo(1))
    .modifyEnd(appendOnly)
    .execute();
  await db.schema.createIndex('audit_events_caller').on('audit_events').columns(['caller', 'occurred_at']).execute();
  await db.schema
    .createTable('audit_subjects')
    .addColumn('event_id', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject_id', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('audit_subjects_key', ['event_id', 'kind', 'subject_id'])
    .modifyEnd(appendOnly)
    .execute();
  await db.schema.createIndex('audit_subjects_subject').on('audit_subjects').columns(['kind', 'subject_id']).execute();
}

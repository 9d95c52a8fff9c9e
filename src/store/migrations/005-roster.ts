import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/**
 * What importing a real school needs. Assessment categories (OneRoster's categories) and the
 * subjects each class takes (OneRoster's scheduled classes) get tables of their own. The roster
 * ledger keeps, for every record an import brought, its sourcedId and the integer id it was given:
 * ids are handed out once and found again on every later import, so clients that stored them keep
 * working. The import log answers "when was the school last loaded, and what came in".
 *
 * An import replaces the school's rows in one transaction, re-inserting each under the id it had.
 * The service's own rows that point into the school (an outbox message's device, an issued
 * document's record and term) must survive that, so on PostgreSQL their foreign keys become
 * deferrable: checked at commit, when the rows are back. SQLite defers per transaction instead.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const id = (column: import('kysely').ColumnDefinitionBuilder) => engine.identityPrimaryKey(column);
  await db.schema
    .createTable('assessment_categories')
    .addColumn('id', 'integer', id)
    .addColumn('name_ar', 'text', (column) => column.notNull())
    .addColumn('name_en', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .alterTable('assessments')
    .addColumn('category_id', 'integer', (column) => column.references('assessment_categories.id'))
    .execute();
  await db.schema
    .createTable('class_subjects')
    .addColumn('id', 'integer', id)
    .addColumn('class_id', 'integer', (column) => column.notNull().references('classes.id'))
    .addColumn('subject_id', 'integer', (column) => column.notNull().references('subjects.id'))
    .addUniqueConstraint('class_subjects_pair', ['class_id', 'subject_id'])
    .execute();
  // A school loaded before this migration gets the subjects its classes take from what they are taught and assessed in.
  await sql`INSERT INTO class_subjects (class_id, subject_id) SELECT class_id, subject_id FROM
    (SELECT class_id, subject_id FROM teacher_assignments UNION SELECT class_id, subject_id FROM assessments) pairs
    ORDER BY class_id, subject_id`.execute(db);
  await db.schema
    .createTable('roster_ids')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('sourced_id', 'text', (column) => column.notNull())
    .addColumn('id', 'integer', (column) => column.notNull())
    .addColumn('modified_at', 'text')
    .addPrimaryKeyConstraint('roster_ids_pk', ['kind', 'sourced_id'])
    .execute();
  await db.schema.createIndex('roster_ids_record').on('roster_ids').columns(['kind', 'id']).execute();
  await db.schema
    .createTable('roster_imports')
    .addColumn('id', 'integer', id)
    .addColumn('started_at', 'text', (column) => column.notNull())
    .addColumn('finished_at', 'text', (column) => column.notNull())
    .addColumn('mode', 'text', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('rows_written', 'integer', (column) => column.notNull())
    .addColumn('rows_skipped', 'integer', (column) => column.notNull())
    .execute();
  // A device, record or term the import deletes is looked for among these rows.
  await db.schema.createIndex('outbox_messages_device').on('outbox_messages').column('device_id').execute();
  await db.schema
    .createIndex('generated_documents_record')
    .on('generated_documents')
    .column('student_record_id')
    .execute();
  await db.schema.createIndex('generated_documents_term').on('generated_documents').column('term_id').execute();
  await engine.deferrableReferences(db, [
    ['outbox_messages', 'device_id'],
    ['generated_documents', 'student_record_id'],
    ['generated_documents', 'term_id'],
  ]);
}

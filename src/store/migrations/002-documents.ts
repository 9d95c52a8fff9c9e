import type { Kysely } from 'kysely';
import type { Engine } from '../engine';

/**
 * Issued documents (report cards and term books) with their content hash. The PDF bytes live in
 * the table, not in the data folder: with PostgreSQL several service processes on several
 * machines share one store but no folder, and a stored document must be found by all of them.
 * The files are small (tens of kilobytes), well within what both engines keep in a row.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('generated_documents')
    .addColumn('id', 'integer', (column) => engine.identityPrimaryKey(column))
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('student_record_id', 'integer', (column) => column.notNull().references('student_records.id'))
    .addColumn('term_id', 'integer', (column) => column.notNull().references('terms.id'))
    .addColumn('input_fingerprint', 'text', (column) => column.notNull().unique())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text', (column) => column.notNull())
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('size', 'integer', (column) => column.notNull())
    .addColumn('content', engine.binaryType, (column) => column.notNull())
    .addColumn('issued_on', 'text', (column) => column.notNull())
    .execute();
}

import type { Kysely } from 'kysely';

/**
 * What a OneRoster provider must know of a large file before its first page, saved by the import
 * with the store's version (roster_versions) so that the first read after a start need not work it
 * out (a pass over every kept row): as JSON, the file's kept rows of no record (by sourcedId: staff
 * such as administrators), the roles kept fields give stored users (by id), and the columns the
 * kept fields add to the file's header. An erasure deletes every row: it may name the person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roster_outlines')
    .addColumn('file', 'varchar(100)', (column) => column.primaryKey())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('outline', 'text', (column) => column.notNull())
    .execute();
}

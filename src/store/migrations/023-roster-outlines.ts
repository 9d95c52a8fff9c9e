import { type Kysely, sql } from 'kysely';
import type { CountedTable, Engine } from '../engine';

/**
 * What the outline of users.csv is read from: the user tables, their ledger entries and the fields
 * an import kept of users.csv (roster/user-outline.ts). A change to anything else (an LMS's line
 * item, a class) leaves a saved outline current.
 */
const USERS_COUNTED_TABLES: readonly CountedTable[] = [
  { table: 'students' },
  { table: 'teachers' },
  { table: 'guardians' },
  { table: 'roster_ids', only: { column: 'kind', values: ['students', 'teachers', 'guardians'] } },
  { table: 'roster_fields', only: { column: 'file', values: ['users.csv'] } },
];

/**
 * What a OneRoster provider must know of users.csv before its first page, saved by the import so
 * that the first read after a start or an unrelated change need not work it out (a pass over every
 * kept user): as JSON, the kept rows of no record (by sourcedId: staff such as administrators), the
 * roles kept fields give stored users (by id) and the columns the kept fields add, at a version of
 * what it is read from (roster_users_versions, moved on by triggers as roster_versions is). An
 * erasure deletes every row: it may name the person.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('roster_users_versions')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await sql`insert into roster_users_versions (id, version) values (1, 1)`.execute(db);
  await engine.countRowChanges(db, 'roster_users_versions', USERS_COUNTED_TABLES);
  await db.schema
    .createTable('roster_outlines')
    .addColumn('file', 'varchar(100)', (column) => column.primaryKey())
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('outline', 'text', (column) => column.notNull())
    .execute();
}

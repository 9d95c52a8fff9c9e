import { type Kysely, sql } from 'kysely';
import type { CountedTable, Engine } from '../engine';

/**
 * The school's records as the OneRoster provider keeps a copy of them (every file but results.csv:
 * provider/exported-rows.ts): the tables its rows are read from, the guardian links, the ledger
 * of sourcedIds and the fields an import kept. The marks, their ledger entries and their kept
 * fields are left out: a consumer writes marks all day, and the copy holds none.
 *
 * The list as it stood when this migration was written, kept as it ran. The tables the rows are
 * read from today are the collection modules' (`export.reads`, roster/collections/registry.ts); a
 * table a module adds is counted by a migration of its own, and
 * test/provider/copy-invalidation.test.ts checks a migrated store of each engine for every one.
 */
const ROSTER_COUNTED_TABLES: readonly CountedTable[] = [
  ...[
    'schools',
    'academic_years',
    'terms',
    'grade_levels',
    'subjects',
    'classes',
    'class_subjects',
    'teachers',
    'students',
    'guardians',
    'student_guardians',
    'student_records',
    'teacher_assignments',
    'assessment_categories',
    'assessments',
    'absence_types',
    'note_types',
    'exams',
  ].map((table) => ({ table })),
  { table: 'roster_ids', except: { column: 'kind', value: 'marks' } },
  { table: 'roster_fields', except: { column: 'file', value: 'results.csv' } },
];

/**
 * A counter that any change to those records moves on, whoever makes it (this process, another
 * node, an import, an operator with psql), so that a process can tell with one point lookup
 * whether its copy is still the store's.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('roster_versions')
    .addColumn('id', 'integer', (column) => column.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'integer', (column) => column.notNull())
    .execute();
  await sql`insert into roster_versions (id, version) values (1, 1)`.execute(db);
  await engine.countRowChanges(db, 'roster_versions', ROSTER_COUNTED_TABLES);
}

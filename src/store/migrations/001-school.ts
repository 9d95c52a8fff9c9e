import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Engine } from '../engine';

/** The school: calendar, classes, people, marks, attendance, notes and exams. */

type Table = CreateTableBuilder<string, never>;

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  /** An integer key counting from 1: SQLite's rowid alias, PostgreSQL's identity column. */
  const create = (name: string): Table =>
    db.schema.createTable(name).addColumn('id', 'integer', (column) => engine.identityPrimaryKey(column));
  const text = (table: Table, ...names: string[]) =>
    names.reduce((built, name) => built.addColumn(name, 'text', (column) => column.notNull()), table);
  const reference = (table: Table, name: string, target: string) =>
    table.addColumn(name, 'integer', (column) => column.notNull().references(`${target}.id`));

  await text(create('schools'), 'name_ar', 'name_en').execute();
  await text(create('academic_years'), 'name', 'starts_on', 'ends_on').execute();
  await text(
    reference(create('terms'), 'academic_year_id', 'academic_years'),
    'name_ar',
    'name_en',
    'starts_on',
    'ends_on',
  ).execute();
  await text(
    create('grade_levels').addColumn('ordinal', 'integer', (column) => column.notNull()),
    'name_ar',
    'name_en',
  ).execute();
  await text(
    reference(reference(create('classes'), 'academic_year_id', 'academic_years'), 'grade_level_id', 'grade_levels'),
    'section',
    'name_ar',
    'name_en',
  ).execute();
  await text(create('subjects'), 'code', 'name_ar', 'name_en').execute();
  await text(create('teachers'), 'name_ar', 'name_en', 'phone').execute();
  await reference(
    reference(reference(create('teacher_assignments'), 'teacher_id', 'teachers'), 'class_id', 'classes'),
    'subject_id',
    'subjects',
  ).execute();
  await text(create('students'), 'name_ar', 'name_en', 'gender', 'birth_date').addColumn('phone', 'text').execute();
  await text(
    reference(
      reference(reference(create('student_records'), 'student_id', 'students'), 'class_id', 'classes'),
      'academic_year_id',
      'academic_years',
    ),
    'enrolled_on',
    'status',
  ).execute();
  await text(create('guardians'), 'name_ar', 'name_en', 'phone').execute();
  await db.schema
    .createTable('student_guardians')
    .addColumn('student_id', 'integer', (column) => column.notNull().references('students.id'))
    .addColumn('guardian_id', 'integer', (column) => column.notNull().references('guardians.id'))
    .addColumn('relation', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('student_guardians_pk', ['student_id', 'guardian_id'])
    .execute();
  await text(
    reference(create('devices'), 'guardian_id', 'guardians'),
    'application_id',
    'device_id',
    'push_token',
    'platform',
  )
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await text(
    reference(
      reference(reference(create('assessments'), 'class_id', 'classes'), 'subject_id', 'subjects'),
      'term_id',
      'terms',
    ),
    'name_ar',
    'name_en',
    'held_on',
  )
    .addColumn('max_score', 'double precision', (column) => column.notNull())
    .execute();
  await reference(reference(create('marks'), 'assessment_id', 'assessments'), 'student_record_id', 'student_records')
    .addColumn('score', 'double precision', (column) => column.notNull())
    .execute();
  await text(create('absence_types'), 'name_ar', 'name_en').execute();
  await text(reference(create('attendance'), 'student_record_id', 'student_records'), 'occurred_on', 'kind')
    .addColumn('absence_type_id', 'integer', (column) => column.references('absence_types.id'))
    .addColumn('minutes_late', 'integer')
    .addColumn('note', 'text')
    .execute();
  await text(create('note_types'), 'name_ar', 'name_en')
    .addColumn('is_positive', 'integer', (column) => column.notNull())
    .execute();
  await text(
    reference(
      reference(reference(create('student_notes'), 'student_id', 'students'), 'note_type_id', 'note_types'),
      'teacher_id',
      'teachers',
    ),
    'written_on',
    'text',
  ).execute();
  await text(
    reference(reference(create('class_notes'), 'class_id', 'classes'), 'teacher_id', 'teachers'),
    'posted_on',
    'title',
    'text',
  ).execute();
  await text(reference(create('exams'), 'term_id', 'terms'), 'name_ar', 'name_en').execute();
  await text(
    reference(
      reference(reference(create('exam_slots'), 'exam_id', 'exams'), 'class_id', 'classes'),
      'subject_id',
      'subjects',
    ),
    'held_on',
    'starts_at',
    'ends_at',
    'room',
  ).execute();

  // The indexes the query operations walk.
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  await index('student_records_student', 'student_records', ['student_id', 'academic_year_id']);
  await index('student_records_class', 'student_records', ['class_id']);
  await index('teacher_assignments_teacher', 'teacher_assignments', ['teacher_id', 'class_id']);
  await index('teacher_assignments_class', 'teacher_assignments', ['class_id', 'subject_id']);
  await index('assessments_class_subject', 'assessments', ['class_id', 'subject_id', 'term_id']);
  await index('marks_record', 'marks', ['student_record_id', 'assessment_id']);
  await index('marks_assessment', 'marks', ['assessment_id']);
  await index('attendance_record', 'attendance', ['student_record_id', 'occurred_on']);
  await index('student_notes_student', 'student_notes', ['student_id', 'written_on']);
  await index('class_notes_class', 'class_notes', ['class_id', 'posted_on']);
  await index('exam_slots_exam', 'exam_slots', ['exam_id', 'held_on', 'starts_at']);
  await index('student_guardians_guardian', 'student_guardians', ['guardian_id']);
  await index('devices_guardian', 'devices', ['guardian_id']);
  await index('devices_application_device', 'devices', ['application_id', 'device_id']);
}

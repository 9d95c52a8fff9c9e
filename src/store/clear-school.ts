import type { Database } from './schema';
import type { Session } from './session';

/** Tables in an order that deletes children before their parents. */
const TABLES_CHILDREN_FIRST: ReadonlyArray<keyof Database> = [
  'outbox_messages',
  'rate_limit_events',
  'generated_documents',
  'exam_slots',
  'exams',
  'class_notes',
  'student_notes',
  'note_types',
  'attendance',
  'absence_types',
  'marks',
  'assessments',
  'devices',
  'student_guardians',
  'guardians',
  'student_records',
  'students',
  'teacher_assignments',
  'teachers',
  'subjects',
  'classes',
  'grade_levels',
  'terms',
  'academic_years',
  'schools',
];

/** Deletes every row of the school's data in one transaction, keeping the schema. */
export async function clearSchool(session: Session): Promise<void> {
  const { db } = session;
  await db.transaction().execute(async (transaction) => {
    for (const table of TABLES_CHILDREN_FIRST) await transaction.deleteFrom(table).execute();
  });
}

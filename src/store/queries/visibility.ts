import type { Session } from '../session';

/** The links between people and classes that decide what a teacher, guardian or student may see. */

export async function guardianChildIds({ db }: Session, guardianId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('student_guardians')
    .select('student_id')
    .where('guardian_id', '=', guardianId)
    .execute();
  return rows.map((row) => row.student_id);
}

/** The classes a teacher is assigned to teach, in any year. */
export async function teacherClassIds({ db }: Session, teacherId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('teacher_assignments')
    .select('class_id')
    .distinct()
    .where('teacher_id', '=', teacherId)
    .execute();
  return rows.map((row) => row.class_id);
}

/** The subjects a teacher teaches in a class. */
export async function teacherSubjectIds({ db }: Session, teacherId: number, classId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('teacher_assignments')
    .select('subject_id')
    .where('teacher_id', '=', teacherId)
    .where('class_id', '=', classId)
    .execute();
  return rows.map((row) => row.subject_id);
}

/** The classes a student was ever enrolled in. */
export async function studentClassIds({ db }: Session, studentId: number): Promise<number[]> {
  const rows = await db.selectFrom('student_records').select('class_id').where('student_id', '=', studentId).execute();
  return rows.map((row) => row.class_id);
}

/** The student and class of an enrolment record. */
export async function enrolmentOf(
  { db }: Session,
  recordId: number,
): Promise<{ studentId: number; classId: number } | undefined> {
  return db
    .selectFrom('student_records')
    .select(['student_id as studentId', 'class_id as classId'])
    .where('id', '=', recordId)
    .executeTakeFirst();
}

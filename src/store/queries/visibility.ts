import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';

/** The links between people and classes that decide what a teacher, guardian or student may see. */

const childrenQuery = compiledQuery((db, p: { guardianId: number }) =>
  db.selectFrom('student_guardians').select('student_id').where('guardian_id', '=', p.guardianId),
);

export async function guardianChildIds(session: Session, guardianId: number): Promise<number[]> {
  return (await childrenQuery(session, { guardianId })).map((row) => row.student_id);
}

const taughtClassesQuery = compiledQuery((db, p: { teacherId: number }) =>
  db.selectFrom('teacher_assignments').select('class_id').distinct().where('teacher_id', '=', p.teacherId),
);

/** The classes a teacher is assigned to teach, in any year. */
export async function teacherClassIds(session: Session, teacherId: number): Promise<number[]> {
  return (await taughtClassesQuery(session, { teacherId })).map((row) => row.class_id);
}

const taughtSubjectsQuery = compiledQuery((db, p: { teacherId: number; classId: number }) =>
  db
    .selectFrom('teacher_assignments')
    .select('subject_id')
    .where('teacher_id', '=', p.teacherId)
    .where('class_id', '=', p.classId),
);

/** The subjects a teacher teaches in a class. */
export async function teacherSubjectIds(session: Session, teacherId: number, classId: number): Promise<number[]> {
  return (await taughtSubjectsQuery(session, { teacherId, classId })).map((row) => row.subject_id);
}

const studentClassesQuery = compiledQuery((db, p: { studentId: number }) =>
  db.selectFrom('student_records').select('class_id').where('student_id', '=', p.studentId),
);

/** The classes a student was ever enrolled in. */
export async function studentClassIds(session: Session, studentId: number): Promise<number[]> {
  return (await studentClassesQuery(session, { studentId })).map((row) => row.class_id);
}

const enrolmentQuery = compiledQuery((db, p: { recordId: number }) =>
  db
    .selectFrom('student_records')
    .select(['student_id as studentId', 'class_id as classId'])
    .where('id', '=', p.recordId),
);

/** The student and class of an enrolment record. */
export async function enrolmentOf(
  session: Session,
  recordId: number,
): Promise<{ studentId: number; classId: number } | undefined> {
  const [enrolment] = await enrolmentQuery(session, { recordId });
  return enrolment;
}

const studentGuardiansQuery = compiledQuery((db, p: { studentId: number }) =>
  db.selectFrom('student_guardians').select('guardian_id').where('student_id', '=', p.studentId),
);

/** The guardians of a student. */
export async function studentGuardianIds(session: Session, studentId: number): Promise<number[]> {
  return (await studentGuardiansQuery(session, { studentId })).map((row) => row.guardian_id);
}

const taughtGuardiansQuery = compiledQuery((db, p: { teacherId: number }) =>
  db
    .selectFrom('teacher_assignments')
    .innerJoin('student_records', 'student_records.class_id', 'teacher_assignments.class_id')
    .innerJoin('student_guardians', 'student_guardians.student_id', 'student_records.student_id')
    .select('student_guardians.guardian_id')
    .distinct()
    .where('teacher_assignments.teacher_id', '=', p.teacherId),
);

/** The guardians of the students a teacher teaches: those ever enrolled in a class the teacher is assigned to. */
export async function taughtGuardianIds(session: Session, teacherId: number): Promise<number[]> {
  return (await taughtGuardiansQuery(session, { teacherId })).map((row) => row.guardian_id);
}

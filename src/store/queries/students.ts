import { type Kysely, sql } from 'kysely';
import type { Mark, StudentInfo, StudentNote, SubjectInfo } from '../../contract/operation-types';
import { compiledQuery } from '../compiled-query';
import type { Database } from '../schema';
import type { Session } from '../session';
import { currentAcademicYearId } from './calendar';

/** Queries about one student: enrolment, subjects, marks and notes. */

function studentInfoQuery(db: Kysely<Database>) {
  return db
    .selectFrom('student_records as record')
    .innerJoin('students as student', 'student.id', 'record.student_id')
    .innerJoin('classes as class', 'class.id', 'record.class_id')
    .innerJoin('grade_levels as grade', 'grade.id', 'class.grade_level_id')
    .innerJoin('academic_years as year', 'year.id', 'record.academic_year_id')
    .select([
      'record.id as studentRecId',
      'student.id as studentId',
      'student.name_ar as nameAr',
      'student.name_en as nameEn',
      'student.gender as gender',
      'student.birth_date as birthDate',
      'student.phone as phone',
      'class.id as classId',
      'class.name_ar as classNameAr',
      'class.name_en as classNameEn',
      'grade.ordinal as gradeLevel',
      'year.name as academicYear',
      'record.enrolled_on as enrolledOn',
      'record.status as status',
    ]);
}

const infoByRecordQuery = compiledQuery((db, p: { recordId: number }) =>
  studentInfoQuery(db).where('record.id', '=', p.recordId),
);

export async function studentInfoByRecordId(session: Session, recordId: number): Promise<StudentInfo | undefined> {
  const [info] = await infoByRecordQuery(session, { recordId });
  return info;
}

/** In one query: the enrolment in the given year first, else the latest (the year may be null). */
const infoByStudentQuery = compiledQuery((db, p: { studentId: number; yearId: number | null }) =>
  studentInfoQuery(db)
    .where('student.id', '=', p.studentId)
    .orderBy(sql`case when record.academic_year_id = ${p.yearId} then 0 else 1 end`)
    .orderBy('year.starts_on', 'desc')
    .limit(1),
);

/** The student's enrolment in the current year, or else the latest one. */
export async function studentInfoByStudentId(
  session: Session,
  studentId: number,
  today: string,
): Promise<StudentInfo | undefined> {
  const yearId = (await currentAcademicYearId(session, today)) ?? null;
  const [info] = await infoByStudentQuery(session, { studentId, yearId });
  return info;
}

async function currentClassId(session: Session, studentId: number, today: string): Promise<number | undefined> {
  const yearId = await currentAcademicYearId(session, today);
  if (yearId === undefined) return undefined;
  const record = await session.db
    .selectFrom('student_records')
    .select('class_id')
    .where('student_id', '=', studentId)
    .where('academic_year_id', '=', yearId)
    .executeTakeFirst();
  return record?.class_id;
}

/** Subjects taught in a class with their teachers, optionally only one teacher's. */
export async function classSubjects(session: Session, classId: number, teacherId?: number): Promise<SubjectInfo[]> {
  const { db } = session;
  let query = db
    .selectFrom('teacher_assignments as assignment')
    .innerJoin('subjects as subject', 'subject.id', 'assignment.subject_id')
    .innerJoin('teachers as teacher', 'teacher.id', 'assignment.teacher_id')
    .select([
      'subject.id as subjectId',
      'subject.code as code',
      'subject.name_ar as nameAr',
      'subject.name_en as nameEn',
      'teacher.id as teacherId',
      'teacher.name_ar as teacherNameAr',
      'teacher.name_en as teacherNameEn',
    ])
    .where('assignment.class_id', '=', classId);
  if (teacherId !== undefined) query = query.where('assignment.teacher_id', '=', teacherId);
  return query.orderBy('subject.id').orderBy('teacher.id').execute();
}

export async function studentSubjects(session: Session, studentId: number, today: string): Promise<SubjectInfo[]> {
  const classId = await currentClassId(session, studentId, today);
  return classId === undefined ? [] : classSubjects(session, classId);
}

/** The student's marks in a subject over the current academic year, in date order. */
export async function studentMarks(
  session: Session,
  studentId: number,
  subjectId: number,
  today: string,
): Promise<Mark[]> {
  const { db } = session;
  const yearId = await currentAcademicYearId(session, today);
  if (yearId === undefined) return [];
  const rows = await db
    .selectFrom('marks as mark')
    .innerJoin('student_records as record', 'record.id', 'mark.student_record_id')
    .innerJoin('assessments as assessment', 'assessment.id', 'mark.assessment_id')
    .innerJoin('terms as term', 'term.id', 'assessment.term_id')
    .select([
      'assessment.id as assessmentId',
      'assessment.name_ar as assessmentNameAr',
      'assessment.name_en as assessmentNameEn',
      'term.id as termId',
      'term.name_ar as termNameAr',
      'term.name_en as termNameEn',
      'assessment.held_on as heldOn',
      'mark.score as score',
      'assessment.max_score as maxScore',
    ])
    .where('record.student_id', '=', studentId)
    .where('record.academic_year_id', '=', yearId)
    .where('assessment.subject_id', '=', subjectId)
    .orderBy('assessment.held_on')
    .orderBy('assessment.id')
    .execute();
  return rows.map((row) => ({ ...row, score: Number(row.score), maxScore: Number(row.maxScore) }));
}

/** Notes about the student, newest first. */
export async function studentNotes(session: Session, studentId: number): Promise<StudentNote[]> {
  const { db } = session;
  const rows = await db
    .selectFrom('student_notes as note')
    .innerJoin('note_types as type', 'type.id', 'note.note_type_id')
    .innerJoin('teachers as teacher', 'teacher.id', 'note.teacher_id')
    .select([
      'note.id as noteId',
      'note.written_on as writtenOn',
      'type.id as noteTypeId',
      'type.name_ar as noteTypeNameAr',
      'type.name_en as noteTypeNameEn',
      'type.is_positive as isPositive',
      'teacher.id as teacherId',
      'teacher.name_ar as authorNameAr',
      'teacher.name_en as authorNameEn',
      'note.text as text',
    ])
    .where('note.student_id', '=', studentId)
    .orderBy('note.written_on', 'desc')
    .orderBy('note.id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, isPositive: row.isPositive === 1 }));
}

import { type Kysely, sql } from 'kysely';
import type { Mark, StudentInfo, StudentNote, SubjectInfo } from '../../contract/operation-types';
import { compiledQuery } from '../compiled-query';
import type { Database } from '../schema';
import type { Session } from '../session';
import { currentAcademicYear } from './calendar';

/** Queries about one student: enrolment, subjects, marks and notes. */

/** A record without a class section (an imported bundle gave none) is served with ClassId and GradeLevel nil. */
function studentInfoQuery(db: Kysely<Database>) {
  return db
    .selectFrom('student_records as record')
    .innerJoin('students as student', 'student.id', 'record.student_id')
    .leftJoin('classes as class', 'class.id', 'record.class_id')
    .leftJoin('grade_levels as grade', 'grade.id', 'class.grade_level_id')
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

/** In one query: the enrolment in the current year first, else the latest (there may be no current year). */
const infoByStudentQuery = compiledQuery((db, p: { studentId: number; today: string }) =>
  studentInfoQuery(db)
    .where('student.id', '=', p.studentId)
    .orderBy(sql`case when record.academic_year_id = ${currentAcademicYear(db, p.today)} then 0 else 1 end`)
    .orderBy('year.starts_on', 'desc')
    .limit(1),
);

/** The student's enrolment in the current year, or else the latest one. */
export async function studentInfoByStudentId(
  session: Session,
  studentId: number,
  today: string,
): Promise<StudentInfo | undefined> {
  const [info] = await infoByStudentQuery(session, { studentId, today });
  return info;
}

/**
 * The subjects of the student's class in the current year, in one query: the class is found by a
 * subquery rather than by a query of its own.
 */
const subjectsOfStudentQuery = compiledQuery((db, p: { studentId: number; today: string }) =>
  classSubjectsQuery(db)
    .where('assignment.class_id', '=', (eb) =>
      eb
        .selectFrom('student_records')
        .select('class_id')
        .where('student_id', '=', p.studentId)
        .where('academic_year_id', '=', currentAcademicYear(db, p.today))
        .limit(1),
    )
    .orderBy('subject.id')
    .orderBy('teacher.id'),
);

/**
 * Each subject of a class with each teacher, once: a teacher enrolled in a class once per term
 * holds an assignment per enrolment.
 */
function classSubjectsQuery(db: Kysely<Database>) {
  return db
    .selectFrom('teacher_assignments as assignment')
    .innerJoin('subjects as subject', 'subject.id', 'assignment.subject_id')
    .innerJoin('teachers as teacher', 'teacher.id', 'assignment.teacher_id')
    .distinct()
    .select([
      'subject.id as subjectId',
      'subject.code as code',
      'subject.name_ar as nameAr',
      'subject.name_en as nameEn',
      'teacher.id as teacherId',
      'teacher.name_ar as teacherNameAr',
      'teacher.name_en as teacherNameEn',
    ]);
}

const classSubjectsOfQuery = compiledQuery((db, p: { classId: number }) =>
  classSubjectsQuery(db).where('assignment.class_id', '=', p.classId).orderBy('subject.id').orderBy('teacher.id'),
);

const teacherClassSubjectsQuery = compiledQuery((db, p: { classId: number; teacherId: number }) =>
  classSubjectsQuery(db)
    .where('assignment.class_id', '=', p.classId)
    .where('assignment.teacher_id', '=', p.teacherId)
    .orderBy('subject.id')
    .orderBy('teacher.id'),
);

/** Subjects taught in a class with their teachers, optionally only one teacher's. */
export async function classSubjects(session: Session, classId: number, teacherId?: number): Promise<SubjectInfo[]> {
  return teacherId === undefined
    ? classSubjectsOfQuery(session, { classId })
    : teacherClassSubjectsQuery(session, { classId, teacherId });
}

export async function studentSubjects(session: Session, studentId: number, today: string): Promise<SubjectInfo[]> {
  return subjectsOfStudentQuery(session, { studentId, today });
}

const marksQuery = compiledQuery((db, p: { studentId: number; subjectId: number; today: string }) =>
  db
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
    .where('record.student_id', '=', p.studentId)
    .where('record.academic_year_id', '=', currentAcademicYear(db, p.today))
    .where('assessment.subject_id', '=', p.subjectId)
    .orderBy('assessment.held_on')
    .orderBy('assessment.id'),
);

/** The student's marks in a subject over the current academic year, in date order. */
export async function studentMarks(
  session: Session,
  studentId: number,
  subjectId: number,
  today: string,
): Promise<Mark[]> {
  const rows = await marksQuery(session, { studentId, subjectId, today });
  return rows.map((row) => ({ ...row, score: Number(row.score), maxScore: Number(row.maxScore) }));
}

const notesQuery = compiledQuery((db, p: { studentId: number }) =>
  db
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
    .where('note.student_id', '=', p.studentId)
    .orderBy('note.written_on', 'desc')
    .orderBy('note.id', 'desc'),
);

/** Notes about the student, newest first. */
export async function studentNotes(session: Session, studentId: number): Promise<StudentNote[]> {
  const rows = await notesQuery(session, { studentId });
  return rows.map((row) => ({ ...row, isPositive: row.isPositive === 1 }));
}

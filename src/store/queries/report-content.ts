import type { Kysely } from 'kysely';
import type { Database } from '../schema';
import type { Session } from '../session';

/**
 * Everything a report card or term book shows about one enrolment in one term, read from the
 * store: who and where, the marks of every assessment of the term, attendance and notes. It is
 * also what a document's fingerprint is taken of, so whatever is rendered must come from here.
 */

export interface BilingualName {
  readonly nameAr: string;
  readonly nameEn: string;
}

export interface AssessmentMark extends BilingualName {
  readonly assessmentId: number;
  readonly heldOn: string;
  readonly maxScore: number;
  /** Null when no mark is recorded for the student. */
  readonly score: number | null;
}

export interface SubjectMarks extends BilingualName {
  readonly subjectId: number;
  readonly assessments: readonly AssessmentMark[];
}

export interface CountByType extends BilingualName {
  readonly typeId: number;
  readonly count: number;
}

export interface NoteCount extends CountByType {
  readonly isPositive: boolean;
}

export interface ReportContent {
  readonly school: BilingualName;
  readonly student: BilingualName & { readonly studentId: number; readonly studentRecordId: number };
  readonly class: BilingualName & { readonly classId: number };
  readonly term: BilingualName & { readonly termId: number; readonly startsOn: string; readonly endsOn: string };
  readonly academicYear: string;
  readonly subjects: readonly SubjectMarks[];
  readonly absencesByType: readonly CountByType[];
  readonly lateness: { readonly count: number; readonly minutes: number };
  readonly notesByType: readonly NoteCount[];
}

/** Which report: an enrolment, the class it must be in, and a term of its academic year. */
export interface ReportSubject {
  readonly studentRecordId: number;
  readonly classId: number;
  readonly termId: number;
}

/** The student's enrolment in the academic year of the term. */
export async function studentRecordForTerm(
  session: Session,
  studentId: number,
  termId: number,
): Promise<number | undefined> {
  const { db } = session;
  const record = await db
    .selectFrom('student_records as record')
    .innerJoin('terms as term', 'term.academic_year_id', 'record.academic_year_id')
    .select('record.id')
    .where('record.student_id', '=', studentId)
    .where('term.id', '=', termId)
    .executeTakeFirst();
  return record?.id;
}

/** The content of the report; undefined unless the record is in that class and the term of its year. */
export async function reportContent(
  session: Session,
  { studentRecordId: recordId, classId, termId }: ReportSubject,
): Promise<ReportContent | undefined> {
  const { db } = session;
  const header = await db
    .selectFrom('student_records as record')
    .innerJoin('students as student', 'student.id', 'record.student_id')
    .innerJoin('classes as class', 'class.id', 'record.class_id')
    .innerJoin('academic_years as year', 'year.id', 'record.academic_year_id')
    .innerJoin('terms as term', 'term.academic_year_id', 'year.id')
    .select([
      'student.id as studentId',
      'student.name_ar as studentNameAr',
      'student.name_en as studentNameEn',
      'class.id as classId',
      'class.name_ar as classNameAr',
      'class.name_en as classNameEn',
      'year.name as academicYear',
      'term.name_ar as termNameAr',
      'term.name_en as termNameEn',
      'term.starts_on as startsOn',
      'term.ends_on as endsOn',
    ])
    .where('record.id', '=', recordId)
    .where('record.class_id', '=', classId)
    .where('term.id', '=', termId)
    .executeTakeFirst();
  if (!header) return undefined;
  const term = {
    termId,
    nameAr: header.termNameAr,
    nameEn: header.termNameEn,
    startsOn: header.startsOn,
    endsOn: header.endsOn,
  };
  const [school, subjects, absencesByType, lateness, notesByType] = await Promise.all([
    db
      .selectFrom('schools')
      .select(['name_ar as nameAr', 'name_en as nameEn'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
    subjectMarks(db, recordId, header.classId, termId),
    absenceCounts(db, recordId, term),
    latenessTotals(db, recordId, term),
    noteCounts(db, header.studentId, term),
  ]);
  return {
    school: school ?? { nameAr: '', nameEn: '' },
    student: {
      studentId: header.studentId,
      studentRecordId: recordId,
      nameAr: header.studentNameAr,
      nameEn: header.studentNameEn,
    },
    class: { classId: header.classId, nameAr: header.classNameAr, nameEn: header.classNameEn },
    term,
    academicYear: header.academicYear,
    subjects,
    absencesByType,
    lateness,
    notesByType,
  };
}

interface TermDates {
  readonly startsOn: string;
  readonly endsOn: string;
}

/**
 * The class's subjects (taught, or assessed this term) with every assessment of the term and the
 * student's mark in it, so that a missing mark shows as missing rather than vanishing.
 */
async function subjectMarks(
  db: Kysely<Database>,
  recordId: number,
  classId: number,
  termId: number,
): Promise<SubjectMarks[]> {
  const [taught, assessments] = await Promise.all([
    db
      .selectFrom('teacher_assignments as assignment')
      .innerJoin('subjects as subject', 'subject.id', 'assignment.subject_id')
      .select(['subject.id as subjectId', 'subject.name_ar as nameAr', 'subject.name_en as nameEn'])
      .where('assignment.class_id', '=', classId)
      .execute(),
    db
      .selectFrom('assessments as assessment')
      .innerJoin('subjects as subject', 'subject.id', 'assessment.subject_id')
      .leftJoin('marks as mark', (join) =>
        join.onRef('mark.assessment_id', '=', 'assessment.id').on('mark.student_record_id', '=', recordId),
      )
      .select([
        'subject.id as subjectId',
        'subject.name_ar as subjectNameAr',
        'subject.name_en as subjectNameEn',
        'assessment.id as assessmentId',
        'assessment.name_ar as nameAr',
        'assessment.name_en as nameEn',
        'assessment.held_on as heldOn',
        'assessment.max_score as maxScore',
        'mark.score as score',
      ])
      .where('assessment.class_id', '=', classId)
      .where('assessment.term_id', '=', termId)
      .orderBy('assessment.held_on')
      .orderBy('assessment.id')
      .execute(),
  ]);
  const subjects = new Map<
    number,
    { subjectId: number; nameAr: string; nameEn: string; assessments: AssessmentMark[] }
  >();
  for (const subject of taught) subjects.set(subject.subjectId, { ...subject, assessments: [] });
  for (const row of assessments) {
    const subject = subjects.get(row.subjectId) ?? {
      subjectId: row.subjectId,
      nameAr: row.subjectNameAr,
      nameEn: row.subjectNameEn,
      assessments: [],
    };
    subjects.set(row.subjectId, subject);
    subject.assessments.push({
      assessmentId: row.assessmentId,
      nameAr: row.nameAr,
      nameEn: row.nameEn,
      heldOn: row.heldOn,
      maxScore: Number(row.maxScore),
      score: row.score === null ? null : Number(row.score),
    });
  }
  return [...subjects.values()].sort((left, right) => left.subjectId - right.subjectId);
}

async function absenceCounts(db: Kysely<Database>, recordId: number, term: TermDates): Promise<CountByType[]> {
  const rows = await db
    .selectFrom('attendance as entry')
    .innerJoin('absence_types as type', 'type.id', 'entry.absence_type_id')
    .select((eb) => [
      'type.id as typeId',
      'type.name_ar as nameAr',
      'type.name_en as nameEn',
      eb.fn.countAll<number>().as('count'),
    ])
    .where('entry.student_record_id', '=', recordId)
    .where('entry.kind', '=', 'absence')
    .where('entry.occurred_on', '>=', term.startsOn)
    .where('entry.occurred_on', '<=', term.endsOn)
    .groupBy(['type.id', 'type.name_ar', 'type.name_en'])
    .orderBy('type.id')
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

async function latenessTotals(
  db: Kysely<Database>,
  recordId: number,
  term: TermDates,
): Promise<{ count: number; minutes: number }> {
  const row = await db
    .selectFrom('attendance')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number | null>('minutes_late').as('minutes')])
    .where('student_record_id', '=', recordId)
    .where('kind', '=', 'lateness')
    .where('occurred_on', '>=', term.startsOn)
    .where('occurred_on', '<=', term.endsOn)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), minutes: Number(row.minutes ?? 0) };
}

/** Notes are kept per student, not per enrolment: the term's dates pick this report's. */
async function noteCounts(db: Kysely<Database>, studentId: number, term: TermDates): Promise<NoteCount[]> {
  const rows = await db
    .selectFrom('student_notes as note')
    .innerJoin('note_types as type', 'type.id', 'note.note_type_id')
    .select((eb) => [
      'type.id as typeId',
      'type.name_ar as nameAr',
      'type.name_en as nameEn',
      'type.is_positive as isPositive',
      eb.fn.countAll<number>().as('count'),
    ])
    .where('note.student_id', '=', studentId)
    .where('note.written_on', '>=', term.startsOn)
    .where('note.written_on', '<=', term.endsOn)
    .groupBy(['type.id', 'type.name_ar', 'type.name_en', 'type.is_positive'])
    .orderBy('type.id')
    .execute();
  return rows.map((row) => ({ ...row, isPositive: row.isPositive === 1, count: Number(row.count) }));
}

import { sql } from 'kysely';
import type { AttendanceRecord, GeneralNote, TeacherGroup } from '../../contract/operation-types';
import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';
import { currentAcademicYear } from './calendar';

/** Queries about a class or a teacher's classes: attendance audit, announcements, groups. */

/** Rows as the database sends them in JSON, one array of values each, in the order selected. */
type EntryRow = [
  id: number,
  occurredOn: string,
  recordId: number,
  kind: string,
  absenceTypeId: number | null,
  minutesLate: number | null,
  note: string | null,
];
type StudentRow = [recordId: number, studentId: number, nameAr: string, nameEn: string];
type AbsenceTypeRow = [id: number, nameAr: string, nameEn: string];

/** SQLite hands over JSON as text; PostgreSQL's driver has parsed it already. */
const parsed = <Row>(value: string | Row[]): Row[] =>
  typeof value === 'string' ? (JSON.parse(value) as Row[]) : value;

/**
 * Every absence and lateness recorded for the class's students, by date, student, then entry.
 *
 * A class has a year of them (about 200 rows), and reading them was most of the call. One
 * statement brings the entries, the class's students and the absence types, each as one JSON
 * array: better-sqlite3 spends about 0.5 µs on each row it hands over and 0.25 µs on each value,
 * and V8 parses the same values from JSON in a third of that. The names are joined here, not
 * repeated on every row by the database, and the order is made here too, where it is cheap.
 */
const attendanceQuery = compiledQuery((_db, p: { classId: number }, engine) => {
  const entryFields = sql.raw(
    'entry.id, entry.occurred_on, entry.student_record_id, entry.kind, entry.absence_type_id, entry.minutes_late, ' +
      'entry.note',
  );
  const studentFields = sql`record.id, student.id, student.name_ar, student.name_en`;
  const entriesJoined = sql.raw(
    'from attendance as entry inner join student_records as record on record.id = entry.student_record_id',
  );
  const studentsJoined = sql.raw(
    'from student_records as record inner join students as student on student.id = record.student_id',
  );
  return sql<{
    entries: string | EntryRow[];
    students: string | StudentRow[];
    absenceTypes: string | AbsenceTypeRow[];
  }>`select
    (select ${engine.jsonRows(entryFields)} ${entriesJoined} where record.class_id = ${p.classId}) as entries,
    (select ${engine.jsonRows(studentFields)} ${studentsJoined} where record.class_id = ${p.classId}) as students,
    (select ${engine.jsonRows(sql`id, name_ar, name_en`)} from absence_types) as "absenceTypes"`;
});

export async function classAttendance(session: Session, classId: number): Promise<AttendanceRecord[]> {
  const rows = await attendanceQuery(session, { classId });
  const studentOfRecord = new Map(parsed(rows[0].students).map((student) => [student[0], student]));
  const absenceType = new Map(parsed(rows[0].absenceTypes).map((type) => [type[0], type]));
  const records = parsed(rows[0].entries).map(
    ([attendanceId, occurredOn, recordId, kind, absenceTypeId, minutesLate, note]): AttendanceRecord => {
      const student = studentOfRecord.get(recordId);
      if (!student) throw new Error(`attendance ${attendanceId} belongs to no student of class ${classId}`);
      const type = absenceTypeId === null ? undefined : absenceType.get(absenceTypeId);
      return {
        attendanceId,
        occurredOn,
        studentId: student[1],
        studentRecId: recordId,
        studentNameAr: student[2],
        studentNameEn: student[3],
        kind,
        absenceTypeId,
        absenceTypeNameAr: type ? type[1] : null,
        absenceTypeNameEn: type ? type[2] : null,
        minutesLate,
        note,
      };
    },
  );
  return records.sort((one, other) =>
    one.occurredOn < other.occurredOn
      ? -1
      : one.occurredOn > other.occurredOn
        ? 1
        : one.studentId - other.studentId || one.attendanceId - other.attendanceId,
  );
}

const generalNotesQuery = compiledQuery((db, p: { classId: number }) =>
  db
    .selectFrom('class_notes as note')
    .innerJoin('teachers as teacher', 'teacher.id', 'note.teacher_id')
    .select([
      'note.id as noteId',
      'note.posted_on as postedOn',
      'note.title as title',
      'note.text as text',
      'teacher.id as teacherId',
      'teacher.name_ar as teacherNameAr',
      'teacher.name_en as teacherNameEn',
    ])
    .where('note.class_id', '=', p.classId)
    .orderBy('note.posted_on', 'desc')
    .orderBy('note.id', 'desc'),
);

/** The class's announcements, newest first. */
export async function classGeneralNotes(session: Session, classId: number): Promise<GeneralNote[]> {
  return generalNotesQuery(session, { classId });
}

const teacherGroupsQuery = compiledQuery((db, p: { teacherId: number; today: string }) =>
  db
    .selectFrom('teacher_assignments as assignment')
    .innerJoin('classes as class', 'class.id', 'assignment.class_id')
    .innerJoin('grade_levels as grade', 'grade.id', 'class.grade_level_id')
    .innerJoin('subjects as subject', 'subject.id', 'assignment.subject_id')
    // Each group once: a teacher enrolled in a class once per term holds an assignment per enrolment.
    .distinct()
    .select((eb) => [
      'class.id as classId',
      'class.name_ar as classNameAr',
      'class.name_en as classNameEn',
      'grade.ordinal as gradeLevel',
      'subject.id as subjectId',
      'subject.name_ar as subjectNameAr',
      'subject.name_en as subjectNameEn',
      eb
        .selectFrom('student_records as record')
        .select((count) => count.fn.countAll<number>().as('count'))
        .whereRef('record.class_id', '=', 'class.id')
        .where('record.status', '=', 'active')
        .as('studentCount'),
    ])
    .where('assignment.teacher_id', '=', p.teacherId)
    .where('class.academic_year_id', '=', currentAcademicYear(db, p.today))
    .orderBy('grade.ordinal')
    .orderBy('class.id')
    .orderBy('subject.id'),
);

/** The class and subject pairs a teacher teaches this year, with the number of active students. */
export async function teacherGroups(session: Session, teacherId: number, today: string): Promise<TeacherGroup[]> {
  const rows = await teacherGroupsQuery(session, { teacherId, today });
  return rows.map((row) => ({ ...row, studentCount: Number(row.studentCount ?? 0) }));
}

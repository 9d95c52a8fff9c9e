import type { Kysely } from 'kysely';
import type { AttendanceRecord, GeneralNote, TeacherGroup } from '../records';
import type { Database } from '../schema';
import { currentAcademicYearId } from './calendar';

/** Queries about a class or a teacher's classes: attendance audit, announcements, groups. */

/**
 * Every absence and lateness recorded for the class's students, by date then student. A class has
 * a year of them (about 200 rows), so the entries are read narrow and the class's students and the
 * absence types (a few dozen rows) are joined to them here: building the row objects, mostly their
 * strings, is most of the cost, and the joined names would repeat on every row.
 */
export async function classAttendance(db: Kysely<Database>, classId: number): Promise<AttendanceRecord[]> {
  const [students, absenceTypes, entries] = await Promise.all([
    db
      .selectFrom('student_records as record')
      .innerJoin('students as student', 'student.id', 'record.student_id')
      .select(['record.id as recordId', 'student.id as studentId', 'student.name_ar as nameAr', 'student.name_en as nameEn'])
      .where('record.class_id', '=', classId)
      .execute(),
    db.selectFrom('absence_types').select(['id', 'name_ar as nameAr', 'name_en as nameEn']).execute(),
    db
      .selectFrom('attendance as entry')
      .innerJoin('student_records as record', 'record.id', 'entry.student_record_id')
      .select(['entry.id', 'entry.occurred_on as occurredOn', 'entry.student_record_id as recordId', 'entry.kind', 'entry.absence_type_id as absenceTypeId', 'entry.minutes_late as minutesLate', 'entry.note'])
      .where('record.class_id', '=', classId)
      .orderBy('entry.occurred_on')
      .orderBy('record.student_id')
      .orderBy('entry.id')
      .execute(),
  ]);
  const studentOfRecord = new Map(students.map((student) => [student.recordId, student]));
  const absenceType = new Map(absenceTypes.map((type) => [type.id, type]));
  return entries.map((entry) => {
    const student = studentOfRecord.get(entry.recordId);
    if (!student) throw new Error(`attendance ${entry.id} belongs to no student of class ${classId}`);
    const type = entry.absenceTypeId === null ? undefined : absenceType.get(entry.absenceTypeId);
    return {
      attendanceId: entry.id,
      occurredOn: entry.occurredOn,
      studentId: student.studentId,
      studentRecId: entry.recordId,
      studentNameAr: student.nameAr,
      studentNameEn: student.nameEn,
      kind: entry.kind,
      absenceTypeId: entry.absenceTypeId,
      absenceTypeNameAr: type?.nameAr ?? null,
      absenceTypeNameEn: type?.nameEn ?? null,
      minutesLate: entry.minutesLate,
      note: entry.note,
    };
  });
}

/** The class's announcements, newest first. */
export async function classGeneralNotes(db: Kysely<Database>, classId: number): Promise<GeneralNote[]> {
  return db
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
    .where('note.class_id', '=', classId)
    .orderBy('note.posted_on', 'desc')
    .orderBy('note.id', 'desc')
    .execute();
}

/** The class and subject pairs a teacher teaches this year, with the number of active students. */
export async function teacherGroups(db: Kysely<Database>, teacherId: number, today: string): Promise<TeacherGroup[]> {
  const yearId = await currentAcademicYearId(db, today);
  if (yearId === undefined) return [];
  const rows = await db
    .selectFrom('teacher_assignments as assignment')
    .innerJoin('classes as class', 'class.id', 'assignment.class_id')
    .innerJoin('grade_levels as grade', 'grade.id', 'class.grade_level_id')
    .innerJoin('subjects as subject', 'subject.id', 'assignment.subject_id')
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
    .where('assignment.teacher_id', '=', teacherId)
    .where('class.academic_year_id', '=', yearId)
    .orderBy('grade.ordinal')
    .orderBy('class.id')
    .orderBy('subject.id')
    .execute();
  return rows.map((row) => ({ ...row, studentCount: Number(row.studentCount ?? 0) }));
}

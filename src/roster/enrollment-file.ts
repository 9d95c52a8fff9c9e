import { requiredColumns } from './oneroster-columns';
import { checkOrg, type ClassesRead, ofOtherSchool } from './class-files';
import { type ScheduledEnrolments, SectionInference } from './class-sections';
import { PupilsTakenOut } from './delta-enrolments';
import type { ImportConnection } from '../store/roster/import-connection';
import { keptRowsOf } from '../store/roster/kept-fields';
import type { FieldReader } from './fields';
import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';
import { foldTeacherAssignments } from './teacher-assignments';

/**
 * enrollments.csv. A student in a homeroom class -> an enrolment record (StudentRecId), from its
 * beginDate (else the start of the class's year). A teacher in a scheduled class -> an assignment
 * to teach that subject to that class section; a teacher in a homeroom class -> an assignment to
 * teach it the homeroom's course (from classes.csv, or in a delta that does not list the homeroom,
 * from its row as imported), so that a homeroom's own teacher has that group too. A teacher
 * enrolled several times to teach one subject to one section (once per term, or in two scheduled
 * classes of the subject) holds one assignment, which stays while one of the enrolments does
 * (teacher-assignments.ts). A student in a scheduled
 * class tells which homeroom the class is taught to; other enrolments have no place in the store
 * and are passed over.
 */
export async function readEnrollments(
  context: ImportContext,
  classes: ClassesRead,
  connection: ImportConnection,
): Promise<void> {
  const { pending, homeroomCourses } = classes;
  const { book } = context;
  const studentsInSections = new Map<Entry, Entry[]>();
  const scheduledOf = new Map<Entry, ScheduledEnrolments>();
  const teaching: Array<{
    start: NonNullable<ReturnType<typeof rowStart>>;
    line: number;
    teacher: Entry;
    section: Entry;
  }> = [];
  const inStoredHomerooms: StoredHomeroomTeaching[] = [];
  const listed = new Set<string>();
  // The assignments the store holds as records, and the enrolments a delta ends: see foldTeacherAssignments.
  const stored = new Set(book.all('teacher_assignments').map((entry) => entry.sourcedId));
  const ended = new Set<string>();
  await forEachRow(context, 'enrollments.csv', requiredColumns('enrollments', context.version), (reader) => {
    const tables = ['student_records', 'teacher_assignments'] as const;
    const start = rowStart(context, reader, tables, 'metadata.contractId');
    if (!start && reader.ok && reader.raw('status').toLowerCase() === 'tobedeleted') ended.add(reader.raw('sourcedId'));
    if (!start || ofOtherSchool(context, reader, 'schoolSourcedId', tables, start.sourcedId)) return;
    listed.add(start.sourcedId);
    const role = reader.oneOf('role', ['administrator', 'proctor', 'student', 'teacher'], true);
    const table = role === 'teacher' ? 'teacher_assignments' : 'student_records';
    checkOrg(context, reader, 'schoolSourcedId');
    const classId = reader.required('classSourcedId');
    const userId = reader.required('userSourcedId');
    const beginDate = reader.date('beginDate', false);
    reader.date('endDate', false);
    const klass = classId && book.resolve(reader, 'classSourcedId', ['classes', 'class_subjects'], classId, 'class');
    const userTables = role === 'teacher' ? (['teachers'] as const) : (['students'] as const);
    // A user of the other role is wrong data, said as such (a student enrolled as a teacher).
    const other = role === 'teacher' ? 'students' : role === 'student' ? 'teachers' : undefined;
    const user =
      userId && other && book.find(other, userId) && !book.find(userTables[0], userId)
        ? reader.fail(
            'role',
            'unknown-value',
            `user "${userId}" is a ${role === 'teacher' ? 'student' : 'teacher'} in users.csv, enrolled as ${role}`,
          )
        : userId && (role === 'teacher' || role === 'student')
          ? book.resolve(reader, 'userSourcedId', userTables, userId, role)
          : undefined;
    if (!reader.ok || !klass || !user) {
      if (reader.ok) return;
      book.markInvalid(table, start.sourcedId, reader);
      return;
    }
    if (role === 'student' && klass.table === 'classes') {
      const year = klass.row?.academic_year_id as Entry | number;
      takeRow(context, reader, 'student_records', start, {
        student_id: user,
        class_id: klass,
        academic_year_id: year,
        enrolled_on: beginDate ?? startOfYear(context, year),
        status: 'active',
      });
    } else if (role === 'student') {
      const students = studentsInSections.get(klass) ?? [];
      students.push(user);
      studentsInSections.set(klass, students);
      const enrolments = scheduledOf.get(user) ?? { classes: [], lines: [], beginDate: undefined };
      enrolments.classes.push(klass);
      enrolments.lines.push(reader.line);
      if (beginDate && (!enrolments.beginDate || beginDate < enrolments.beginDate)) enrolments.beginDate = beginDate;
      scheduledOf.set(user, enrolments);
    } else if (klass.table === 'class_subjects') {
      teaching.push({ start, line: reader.line, teacher: user, section: klass });
    } else if (role === 'teacher') {
      const course = homeroomCourses.get(klass);
      if (course) takeRow(context, reader, 'teacher_assignments', start, homeroomTeaching(user, klass, course));
      else inStoredHomerooms.push({ start, line: reader.line, teacher: user, homeroom: klass });
    }
  });
  const reader = context.readers.get('enrollments.csv');
  const inferFrom = reader ?? context.readers.get('classes.csv');
  const inference = inferFrom && new SectionInference(context, pending, inferFrom);
  const takenOut = reader && (await PupilsTakenOut.of(context, connection, reader, listed));
  await takenOut?.placeAgain(connection, pending, studentsInSections);
  inference?.placeStudents(scheduledOf);
  takenOut?.dropEmptyRecords(scheduledOf);
  assignIds(context, 'grade_levels');
  assignIds(context, 'classes');
  assignIds(context, 'student_records');
  const sectionsOfStudent = new Map<unknown, Set<Entry>>();
  const classesById = new Map(book.all('classes').map((entry) => [entry.id, entry]));
  for (const record of book.all('student_records')) {
    const student = record.row?.student_id;
    const key = typeof student === 'object' ? (student as Entry).id : student;
    const homeroom = record.row?.class_id;
    const found = typeof homeroom === 'object' ? (homeroom as Entry) : classesById.get(Number(homeroom));
    if (!found) continue;
    const sections = sectionsOfStudent.get(key) ?? new Set();
    sections.add(found);
    sectionsOfStudent.set(key, sections);
  }
  inference?.placeClasses((klass) => {
    const sections = new Map<Entry, number>();
    for (const student of studentsInSections.get(klass) ?? []) {
      for (const section of sectionsOfStudent.get(student.id) ?? [])
        sections.set(section, (sections.get(section) ?? 0) + 1);
    }
    return sections;
  });
  inference?.warnMade();
  takenOut?.moveWhatHangsOff();
  for (const { start, line, teacher, section } of teaching) {
    if (!reader) break;
    reader.begin({ line, values: [] });
    const resolved = book.find('class_subjects', section.sourcedId);
    if (!resolved?.row) {
      reader.fail('classSourcedId', 'depends-on-invalid', `class "${section.sourcedId}" has no homeroom`);
      book.markInvalid('teacher_assignments', start.sourcedId, reader);
      continue;
    }
    takeRow(context, reader, 'teacher_assignments', start, {
      teacher_id: teacher,
      class_id: resolved.row.class_id,
      subject_id: resolved.row.subject_id,
    });
  }
  if (reader) await teachStoredHomerooms(context, connection, reader, inStoredHomerooms);
  foldTeacherAssignments(context, ended, stored);
  assignIds(context, 'teacher_assignments');
}

const homeroomTeaching = (teacher: Entry, homeroom: Entry, course: Entry) => ({
  teacher_id: teacher,
  class_id: homeroom,
  subject_id: course,
});

interface StoredHomeroomTeaching {
  readonly start: NonNullable<ReturnType<typeof rowStart>>;
  readonly line: number;
  readonly teacher: Entry;
  readonly homeroom: Entry;
}

/**
 * A delta's teachers of homerooms it does not list: the course is the one the homeroom's row
 * named when it was imported (kept for export), so that a delta assigns what a bulk import of the
 * same school would. A homeroom of no import (the demo school's) has none: passed over.
 */
async function teachStoredHomerooms(
  context: ImportContext,
  connection: ImportConnection,
  reader: FieldReader,
  teaching: readonly StoredHomeroomTeaching[],
): Promise<void> {
  // A bulk import replaces what is kept: the store's is of the import before.
  if (teaching.length === 0 || context.mode !== 'delta') return;
  const kept = await keptRowsOf(connection, 'classes.csv', [...new Set(teaching.map((row) => row.homeroom.sourcedId))]);
  for (const { start, line, teacher, homeroom } of teaching) {
    const courseId = kept.get(homeroom.sourcedId)?.courseSourcedId;
    const course = courseId === undefined ? undefined : context.book.find('subjects', courseId);
    if (!course) continue;
    reader.begin({ line, values: [] });
    takeRow(context, reader, 'teacher_assignments', start, homeroomTeaching(teacher, homeroom, course));
  }
}

function startOfYear(context: ImportContext, year: Entry | number): unknown {
  const entry =
    typeof year === 'object' ? year : context.book.all('academic_years').find((candidate) => candidate.id === year);
  return entry?.row?.starts_on ?? '';
}

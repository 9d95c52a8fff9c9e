import type { ImportConnection } from '../../store/roster/import-connection';
import { keptRowsOf } from '../../store/roster/kept-fields';
import type { BundleReading } from '../bundle-reading';
import type { ClassesRead } from '../class-files';
import { type ScheduledEnrolments, SectionInference } from '../class-sections';
import { PupilsTakenOut, type TeachingAgain } from '../delta-enrolments';
import { endEnrolmentsOfDeleted } from '../delta-ended-rows';
import type { FieldReader } from '../fields';
import type { ImportContext } from '../import-context';
import { checkOrg, ofOtherSchool } from '../org-references';
import { assignIds, type BundleFile, type FilledRow, forEachRow, type RowStart, rowStart, takeRow } from '../read-file';
import type { Entry } from '../roster-book';
import { foldTeacherAssignments } from '../teacher-assignments';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  schoolSourcedId,
  sectionRef,
  sectionsOf,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * enrollments.csv: each student's record in a class and each teacher's assignment to a class
 * section. A student in a homeroom class -> an enrolment record (StudentRecId), from its
 * beginDate (else the start of the class's year). A teacher in a scheduled class -> an assignment
 * to teach that subject to that class section; a teacher in a homeroom class -> an assignment to
 * teach it the homeroom's course (from classes.csv, or in a delta that does not list the homeroom,
 * from its row as imported), so that a homeroom's own teacher has that group too. A teacher
 * enrolled several times to teach one subject to one section (once per term, or in two scheduled
 * classes of the subject) holds one assignment, which stays while one of the enrolments does
 * (teacher-assignments.ts). A student in a scheduled class tells which homeroom the class is
 * taught to (class-sections.ts); other enrolments have no place in the store and are passed over.
 */
export const ENROLLMENTS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'classSourcedId',
  'schoolSourcedId',
  'userSourcedId',
  'role',
  'primary',
  'beginDate',
  'endDate',
] as const;

type Column = (typeof ENROLLMENTS_COLUMNS)[number];

type ReadColumn = Column | MetadataColumn;

export const enrollments = {
  name: 'enrollments',
  service: 'rostering',
  columns: ENROLLMENTS_COLUMNS,
  required: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
  import: { fills: ['student_records', 'teacher_assignments'], read: readEnrollments },
  export: {
    reads: {
      whole: ['student_records', 'teacher_assignments', 'class_subjects', 'classes', 'students', 'teachers', 'schools'],
    },
    header: [...ENROLLMENTS_COLUMNS, 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const orgSourcedId = schoolSourcedId(school);
      // A record without a class section has no class to be enrolled in: it is not written (the
      // scheduled-class enrolments it was inferred from are not kept; see docs/import.md).
      for (const row of storedRows(school, 'student_records')) {
        if (row.class_id === null) continue;
        yield {
          classSourcedId: school.ref('classes', row.class_id),
          schoolSourcedId: orgSourcedId,
          userSourcedId: school.ref('students', row.student_id),
          role: 'student',
          primary: 'false',
          beginDate: row.enrolled_on,
          'metadata.contractId': row.id,
          ...commonCells(school, 'student_records', row),
        };
      }
      const sections = sectionsOf(school);
      for (const row of storedRows(school, 'teacher_assignments')) {
        yield {
          classSourcedId: sectionRef(school, sections, row),
          schoolSourcedId: orgSourcedId,
          userSourcedId: school.ref('teachers', row.teacher_id),
          role: 'teacher',
          primary: 'false',
          'metadata.contractId': row.id,
          ...commonCells(school, 'teacher_assignments', row),
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['classSourcedId', 'class', 'ref'],
    ['schoolSourcedId', 'school', 'ref'],
    ['userSourcedId', 'user', 'ref'],
    ['role', 'role', 'text'],
    ['primary', 'primary', 'text'],
    ['beginDate', 'beginDate', 'date'],
    ['endDate', 'endDate', 'date'],
  ]),
} as const satisfies OneRosterCollection<'enrollments', Column>;

async function readEnrollments({ context, classes, connection }: BundleReading, file: BundleFile): Promise<void> {
  const read: EnrolmentsRead = {
    studentsInSections: new Map(),
    scheduledOf: new Map(),
    teaching: [],
    inStoredHomerooms: [],
    pupilsByName: new Map(),
    listed: new Set(),
    ended: new Set(),
  };
  // The assignments the store holds as records, and the enrolments a delta ends: see foldTeacherAssignments.
  const stored = new Set(context.book.all('teacher_assignments').map((entry) => entry.sourcedId));
  await forEachRow<ReadColumn>(context, file, requiredIn(enrollments, context.version), (reader) =>
    readEnrolment(context, classes.homeroomCourses, reader, read),
  );
  await endEnrolmentsOfDeleted(context, connection, read.listed, read.ended);
  const reader = context.readers.get('enrollments.csv');
  for (const again of await placeScheduledClasses(context, connection, classes.pending, read)) {
    const start = { sourcedId: again.sourcedId, modifiedAt: undefined, pinnedId: undefined };
    const { line, teacher, klass } = again;
    if (klass.table === 'class_subjects') read.teaching.push({ start, line, teacher, className: again.className });
    else read.inStoredHomerooms.push({ start, line, teacher, homeroom: klass });
  }
  if (reader) teachSections(context, reader, read.teaching);
  if (reader) await teachStoredHomerooms(context, connection, reader, read.inStoredHomerooms);
  foldTeacherAssignments(context, read.ended, stored);
  assignIds(context, 'teacher_assignments');
}

/** What the rows of enrollments.csv leave to be placed once every row is read. */
interface EnrolmentsRead {
  /** The students enrolled in each scheduled class. */
  readonly studentsInSections: Map<Entry, Entry[]>;
  /** Each student's enrolments in scheduled classes. */
  readonly scheduledOf: Map<Entry, ScheduledEnrolments>;
  /** Teachers of scheduled classes, assigned once the classes have their sections. */
  readonly teaching: SectionTeaching[];
  readonly inStoredHomerooms: StoredHomeroomTeaching[];
  /** The students of scheduled classes by the class name each enrolment gives (a class may have several). */
  readonly pupilsByName: Map<string, Entry[]>;
  /** The sourcedIds of the enrolments read. */
  readonly listed: Set<string>;
  /** The sourcedIds of the enrolments a delta ends (status=tobedeleted). */
  readonly ended: Set<string>;
}

interface SectionTeaching {
  readonly start: RowStart;
  readonly line: number;
  readonly teacher: Entry;
  /** The class's sourcedId as the enrolment gives it: another name of a class may be placed apart from it. */
  readonly className: string;
}

const ROLES = ['administrator', 'proctor', 'student', 'teacher'] as const;

/** An enrolment whose fields are checked and whose class and user are found. */
interface Enrolment {
  readonly start: RowStart;
  readonly role: (typeof ROLES)[number] | undefined;
  readonly klass: Entry;
  readonly user: Entry;
  readonly beginDate: string | undefined;
}

/** Reads a row of enrollments.csv: checks it, and takes or notes what it enrols. */
function readEnrolment(
  context: ImportContext,
  homeroomCourses: ClassesRead['homeroomCourses'],
  reader: FieldReader<ReadColumn>,
  read: EnrolmentsRead,
): void {
  const { book } = context;
  const tables = ['student_records', 'teacher_assignments'] as const;
  const start = rowStart(context, reader, tables, 'metadata.contractId');
  if (!start && reader.ok && reader.raw('status').toLowerCase() === 'tobedeleted')
    read.ended.add(reader.raw('sourcedId'));
  if (!start || ofOtherSchool(context, reader, 'schoolSourcedId', tables, start.sourcedId)) return;
  read.listed.add(start.sourcedId);
  const role = reader.oneOf('role', ROLES, true);
  const table = role === 'teacher' ? 'teacher_assignments' : 'student_records';
  checkOrg(context, reader, 'schoolSourcedId');
  const classId = reader.required('classSourcedId');
  const userId = reader.required('userSourcedId');
  const beginDate = reader.date('beginDate', false);
  reader.date('endDate', false);
  const klass = classId && book.resolve(reader, 'classSourcedId', ['classes', 'class_subjects'], classId, 'class');
  const user = enrolledUser(context, reader, role, userId);
  if (!reader.ok || !klass || !user) {
    if (reader.ok) return;
    book.markInvalid(table, start.sourcedId, reader);
    return;
  }
  placeEnrolment(context, homeroomCourses, reader, read, { start, role, klass, user, beginDate });
}

/** The student or teacher an enrolment names, in the role it gives; none for the other roles. */
function enrolledUser(
  context: ImportContext,
  reader: FieldReader<ReadColumn>,
  role: Enrolment['role'],
  userId: string | undefined,
): Entry | undefined {
  const { book } = context;
  const userTables = role === 'teacher' ? (['teachers'] as const) : (['students'] as const);
  // A user of the other role is wrong data, said as such (a student enrolled as a teacher).
  const other = role === 'teacher' ? 'students' : role === 'student' ? 'teachers' : undefined;
  if (userId && other && book.find(other, userId) && !book.find(userTables[0], userId)) {
    return reader.fail(
      'role',
      'unknown-value',
      `user "${userId}" is a ${role === 'teacher' ? 'student' : 'teacher'} in users.csv, enrolled as ${role}`,
    );
  }
  return userId && (role === 'teacher' || role === 'student')
    ? book.resolve(reader, 'userSourcedId', userTables, userId, role)
    : undefined;
}

/**
 * A student in a homeroom: an enrolment record; in a scheduled class: noted, to place the class;
 * a teacher of a homeroom: an assignment to teach its course; of a scheduled class: noted, to be
 * assigned once the class has its section.
 */
function placeEnrolment(
  context: ImportContext,
  homeroomCourses: ClassesRead['homeroomCourses'],
  reader: FieldReader<ReadColumn>,
  read: EnrolmentsRead,
  { start, role, klass, user, beginDate }: Enrolment,
): void {
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
    const students = read.studentsInSections.get(klass) ?? [];
    students.push(user);
    read.studentsInSections.set(klass, students);
    const name = reader.raw('classSourcedId').trim();
    read.pupilsByName.set(name, [...(read.pupilsByName.get(name) ?? []), user]);
    const enrolments = read.scheduledOf.get(user) ?? { classes: [], lines: [], beginDate: undefined };
    enrolments.classes.push(klass);
    enrolments.lines.push(reader.line);
    if (beginDate && (!enrolments.beginDate || beginDate < enrolments.beginDate)) enrolments.beginDate = beginDate;
    read.scheduledOf.set(user, enrolments);
  } else if (klass.table === 'class_subjects') {
    read.teaching.push({ start, line: reader.line, teacher: user, className: reader.raw('classSourcedId').trim() });
  } else if (role === 'teacher') {
    const course = homeroomCourses.get(klass);
    if (course) takeRow(context, reader, 'teacher_assignments', start, homeroomTeaching(user, klass, course));
    else read.inStoredHomerooms.push({ start, line: reader.line, teacher: user, homeroom: klass });
  }
}

/**
 * Once every enrolment is read: the scheduled classes' students placed in class sections, the
 * classes given ids, and each scheduled class placed in the section most of its students are in.
 * Returns a delta's stored teachers' enrolments to read again (see PupilsTakenOut).
 */
async function placeScheduledClasses(
  context: ImportContext,
  connection: ImportConnection,
  pending: ClassesRead['pending'],
  read: EnrolmentsRead,
): Promise<TeachingAgain[]> {
  const reader = context.readers.get('enrollments.csv');
  const inferFrom = reader ?? context.readers.get('classes.csv');
  const inference = inferFrom && new SectionInference(context, pending, inferFrom);
  const takenOut = reader && (await PupilsTakenOut.of(context, connection, reader, read.listed));
  await takenOut?.placeAgain(connection, pending, read.studentsInSections, read.pupilsByName);
  inference?.placeStudents(read.scheduledOf);
  takenOut?.dropEmptyRecords(read.scheduledOf);
  assignIds(context, 'grade_levels');
  assignIds(context, 'classes');
  assignIds(context, 'student_records');
  const sectionsOfStudent = sectionsOfStudents(context);
  inference?.placeClasses((klass) => {
    const sections = new Map<Entry, number>();
    for (const student of read.studentsInSections.get(klass) ?? []) {
      for (const section of sectionsOfStudent.get(student.id) ?? [])
        sections.set(section, (sections.get(section) ?? 0) + 1);
    }
    return sections;
  });
  inference?.warnMade();
  return (await takenOut?.moveWhatHangsOff(connection)) ?? [];
}

/** The class sections each student has an enrolment record in, by the student's id. */
function sectionsOfStudents(context: ImportContext): Map<unknown, Set<Entry>> {
  const { book } = context;
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
  return sectionsOfStudent;
}

/** The teachers of scheduled classes: each an assignment to teach the subject to the class's section. */
function teachSections(context: ImportContext, reader: FieldReader, teaching: readonly SectionTeaching[]): void {
  for (const { start, line, teacher, className } of teaching) {
    reader.begin({ line, values: [] });
    const resolved = context.book.find('class_subjects', className);
    if (!resolved?.row) {
      reader.fail('classSourcedId', 'depends-on-invalid', `class "${className}" has no homeroom`);
      context.book.markInvalid('teacher_assignments', start.sourcedId, reader);
      continue;
    }
    takeRow(context, reader, 'teacher_assignments', start, {
      teacher_id: teacher,
      class_id: resolved.row.class_id,
      subject_id: resolved.row.subject_id,
    });
  }
}

const homeroomTeaching = (teacher: Entry, homeroom: Entry, course: Entry): FilledRow<'teacher_assignments'> => ({
  teacher_id: teacher,
  class_id: homeroom,
  subject_id: course,
});

interface StoredHomeroomTeaching {
  readonly start: RowStart;
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

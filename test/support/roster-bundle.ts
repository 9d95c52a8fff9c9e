import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import yazl from 'yazl';

/**
 * Bundles written by the tests: a small school as OneRoster 1.1 files plus the service's own, held
 * as rows of named fields so a test can change one value, drop a column or reorder the columns,
 * then write it as SIS exports do (BOM or not, CRLF or LF) to a folder or a zip.
 */
export type BundleRows = Record<string, Array<Record<string, string>>>;

const ONEROSTER = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'enrollments',
  'demographics',
  'categories',
  'lineItems',
  'results',
];

/** The school's Arabic-named student, whose name the tests follow to the wire. */
export const ARABIC_STUDENT = { sourcedId: 's1', name: 'عبدالرحمن خالد العتيبي', identifier: '1001' };

export function smallSchool(): BundleRows {
  const user = (
    sourcedId: string,
    role: string,
    given: string,
    family: string,
    extra: Record<string, string> = {},
  ) => ({
    sourcedId,
    status: '',
    dateLastModified: '',
    enabledUser: 'true',
    orgSourcedIds: 'sch-1',
    role,
    username: sourcedId,
    givenName: given,
    familyName: family,
    middleName: '',
    identifier: '',
    sms: '',
    phone: '',
    agentSourcedIds: '',
    ...extra,
  });
  const enrollment = (sourcedId: string, klass: string, userId: string, role: string, beginDate = '') => ({
    sourcedId,
    classSourcedId: klass,
    schoolSourcedId: 'sch-1',
    userSourcedId: userId,
    role,
    beginDate,
  });
  const klass = (
    sourcedId: string,
    title: string,
    course: string,
    type: string,
    terms: string,
    extra: Record<string, string> = {},
  ) => ({
    sourcedId,
    title,
    grades: '07',
    courseSourcedId: course,
    classCode: '',
    classType: type,
    schoolSourcedId: 'sch-1',
    termSourcedIds: terms,
    ...extra,
  });
  return {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      ...ONEROSTER.map((name) => ({ propertyName: `file.${name}`, value: 'bulk' })),
    ],
    orgs: [
      { sourcedId: 'dist-1', name: 'District One', type: 'district', parentSourcedId: '', 'metadata.nameEn': '' },
      {
        sourcedId: 'sch-1',
        name: 'مدرسة الأمل',
        type: 'school',
        parentSourcedId: 'dist-1',
        'metadata.nameEn': 'Al-Amal School',
      },
    ],
    academicSessions: [
      {
        sourcedId: 'y2026',
        title: '2026/2027',
        type: 'schoolYear',
        startDate: '2026-09-01',
        endDate: '2027-06-30',
        parentSourcedId: '',
        schoolYear: '2027',
      },
      {
        sourcedId: 't1',
        title: 'الفصل الأول',
        type: 'term',
        startDate: '2026-09-01',
        endDate: '2027-01-15',
        parentSourcedId: 'y2026',
        schoolYear: '2027',
      },
      {
        sourcedId: 't2',
        title: 'الفصل الثاني',
        type: 'term',
        startDate: '2027-01-16',
        endDate: '2027-06-30',
        parentSourcedId: 'y2026',
        schoolYear: '2027',
      },
      {
        sourcedId: 'gp1',
        title: 'Quarter 1',
        type: 'gradingPeriod',
        startDate: '2026-09-01',
        endDate: '2026-11-15',
        parentSourcedId: 't1',
        schoolYear: '2027',
      },
    ],
    courses: [
      {
        sourcedId: 'c-math',
        title: 'الرياضيات',
        courseCode: 'MTH',
        orgSourcedId: 'sch-1',
        'metadata.nameEn': 'Mathematics',
      },
      { sourcedId: 'c-sci', title: 'العلوم', courseCode: 'SCI', orgSourcedId: 'sch-1', 'metadata.nameEn': 'Science' },
    ],
    classes: [
      klass('hr-7a', 'الصف السابع أ', 'c-math', 'homeroom', 'y2026', { classCode: '7A' }),
      klass('hr-7b', 'الصف السابع ب', 'c-math', 'homeroom', 'y2026', { classCode: '7B' }),
      klass('math-7a', 'Math 7A', 'c-math', 'scheduled', 't1,t2'),
      klass('sci-7a', 'Science 7A', 'c-sci', 'scheduled', 't1', { 'metadata.homeroomSourcedId': 'hr-7a' }),
      klass('math-7b', 'Math 7B', 'c-math', 'scheduled', 't1'),
    ],
    users: [
      user('s1', 'student', 'عبدالرحمن', 'العتيبي', { middleName: 'خالد', identifier: '1001', agentSourcedIds: 'g1' }),
      user('s2', 'student', 'Sara', 'Ali', { identifier: '1002', agentSourcedIds: 'g1', phone: '0551112222' }),
      user('s3', 'student', 'Omar', 'Hassan', { identifier: '1003', agentSourcedIds: 'g2' }),
      user('t-1', 'teacher', 'Mona', 'Saleh', { identifier: '501', phone: '0501234567' }),
      user('t-2', 'teacher', 'Yusuf', 'Karim', { identifier: '502', sms: '+966 50 765 4321' }),
      user('g1', 'parent', 'Khalid', 'Al-Otaibi', { identifier: '9001', phone: '0500000002' }),
      user('g2', 'guardian', 'Huda', 'Hassan', { identifier: '9002', phone: '00966500000003' }),
      user('admin-1', 'administrator', 'Admin', 'User'),
    ],
    demographics: [
      { sourcedId: 's1', birthDate: '2013-04-02', sex: 'male' },
      { sourcedId: 's2', birthDate: '2013-09-12', sex: 'female' },
    ],
    enrollments: [
      enrollment('e1', 'hr-7a', 's1', 'student', '2026-09-01'),
      enrollment('e2', 'hr-7a', 's2', 'student'),
      enrollment('e3', 'hr-7b', 's3', 'student'),
      enrollment('e4', 'math-7a', 's1', 'student'),
      enrollment('e5', 'math-7a', 's2', 'student'),
      enrollment('e6', 'math-7b', 's3', 'student'),
      enrollment('e7', 'math-7a', 't-1', 'teacher'),
      enrollment('e8', 'sci-7a', 't-2', 'teacher'),
      enrollment('e9', 'math-7b', 't-1', 'teacher'),
    ],
    categories: [
      { sourcedId: 'cat-quiz', title: 'اختبار قصير', 'metadata.nameEn': 'Quiz' },
      { sourcedId: 'cat-exam', title: 'اختبار', 'metadata.nameEn': 'Exam' },
    ],
    lineItems: [
      lineItem('li1', 'اختبار قصير 1', 'math-7a', 'cat-quiz', 'gp1', '10'),
      lineItem('li2', 'Midterm', 'sci-7a', 'cat-exam', 't1', '30'),
      lineItem('li3', 'Quiz B', 'math-7b', 'cat-quiz', 't1', '10'),
    ],
    results: [
      result('r1', 'li1', 's1', '8.5'),
      result('r2', 'li1', 's2', '9'),
      result('r3', 'li2', 's1', '27'),
      result('r4', 'li3', 's3', '7'),
    ],
    absenceTypes: [{ sourcedId: 'at-sick', name: 'غياب بعذر طبي', nameEn: 'Sick leave' }],
    noteTypes: [{ sourcedId: 'nt-good', name: 'مشاركة متميزة', nameEn: 'Excellent participation', positive: 'true' }],
    attendance: [
      {
        sourcedId: 'a1',
        studentSourcedId: 's1',
        classSourcedId: 'hr-7a',
        date: '2026-10-05',
        kind: 'absence',
        absenceTypeSourcedId: 'at-sick',
        minutesLate: '',
        note: '',
      },
      {
        sourcedId: 'a2',
        studentSourcedId: 's3',
        classSourcedId: 'hr-7b',
        date: '2026-10-06',
        kind: 'lateness',
        absenceTypeSourcedId: '',
        minutesLate: '15',
        note: 'Bus was late, "again"',
      },
    ],
    studentNotes: [
      {
        sourcedId: 'n1',
        studentSourcedId: 's1',
        noteTypeSourcedId: 'nt-good',
        teacherSourcedId: 't-1',
        date: '2026-10-07',
        text: 'شارك بفاعلية، وأحسن',
      },
    ],
    classNotes: [
      {
        sourcedId: 'cn1',
        classSourcedId: 'hr-7a',
        teacherSourcedId: 't-1',
        date: '2026-10-08',
        title: 'رحلة',
        text: 'Line one,\nline "two"',
      },
    ],
    exams: [{ sourcedId: 'ex1', termSourcedId: 't1', name: 'اختبارات منتصف الفصل', nameEn: 'Midterms' }],
    examSlots: [
      {
        sourcedId: 'es1',
        examSourcedId: 'ex1',
        classSourcedId: 'hr-7a',
        courseSourcedId: 'c-math',
        date: '2026-11-01',
        startTime: '08:00',
        endTime: '10:00',
        room: '101',
      },
    ],
    devices: [
      {
        sourcedId: 'd1',
        guardianSourcedId: 'g1',
        applicationId: 'school-app',
        deviceId: 'dev-1',
        pushToken: 'token-abc',
        platform: 'android',
        enabled: 'true',
      },
    ],
  };
}

function lineItem(sourcedId: string, title: string, klass: string, category: string, period: string, max: string) {
  return {
    sourcedId,
    title,
    assignDate: '2026-10-01',
    dueDate: '2026-10-01',
    classSourcedId: klass,
    categorySourcedId: category,
    gradingPeriodSourcedId: period,
    resultValueMin: '0',
    resultValueMax: max,
  };
}

function result(sourcedId: string, item: string, student: string, score: string) {
  return {
    sourcedId,
    lineItemSourcedId: item,
    studentSourcedId: student,
    scoreStatus: 'fully graded',
    score,
    scoreDate: '2026-10-02',
  };
}

export interface WriteOptions {
  readonly bom?: boolean;
  readonly eol?: '\r\n' | '\n' | '\r';
  /** Columns written last to first, as exports in another order would. */
  readonly reversed?: boolean;
}

/** The text of one file: a header of every field any row has, then the rows. */
export function csvText(rows: Array<Record<string, string>>, options: WriteOptions = {}): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (options.reversed) columns.reverse();
  const text = stringify([columns, ...rows.map((row) => columns.map((column) => row[column] ?? ''))], {
    record_delimiter: options.eol === '\r\n' ? 'windows' : options.eol === '\r' ? 'mac' : 'unix',
    // csv-stringify quotes only the line end it writes: a CR or LF of another kind ends a record too.
    quoted_match: /[\r\n]/,
  });
  return (options.bom ? '\uFEFF' : '') + text;
}

/** A delta bundle of the given files: the manifest declares them delta and the others absent. */
export function deltaBundle(files: Partial<BundleRows>): BundleRows {
  const names = Object.keys(files);
  return {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      ...ONEROSTER.map((name) => ({ propertyName: `file.${name}`, value: names.includes(name) ? 'delta' : 'absent' })),
    ],
    ...files,
  } as BundleRows;
}

export function writeBundle(rows: BundleRows, options: WriteOptions = {}): string {
  const folder = mkdtempSync(join(tmpdir(), 'roster-bundle-'));
  mkdirSync(folder, { recursive: true });
  for (const [name, fileRows] of Object.entries(rows))
    writeFileSync(join(folder, `${name}.csv`), csvText(fileRows, options));
  return folder;
}

export async function writeZipBundle(rows: BundleRows, options: WriteOptions = {}): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'roster-zip-')), 'bundle.zip');
  const zip = new yazl.ZipFile();
  for (const [name, fileRows] of Object.entries(rows))
    zip.addBuffer(Buffer.from(csvText(fileRows, options)), `export/${name}.csv`);
  zip.end();
  const output = createWriteStream(path);
  zip.outputStream.pipe(output);
  await finished(output);
  return path;
}

/** A copy of the bundle with one field changed (or, with `undefined`, the column gone from that row). */
export function withValue(
  rows: BundleRows,
  file: string,
  sourcedId: string,
  column: string,
  value: string,
): BundleRows {
  const copy = structuredClone(rows);
  const row = copy[file].find((candidate) => candidate.sourcedId === sourcedId);
  if (!row) throw new Error(`${file} has no row ${sourcedId}`);
  row[column] = value;
  return copy;
}

export function withoutColumn(rows: BundleRows, file: string, column: string): BundleRows {
  const copy = structuredClone(rows);
  for (const row of copy[file]) delete row[column];
  return copy;
}

/** The line a row is on (the header is line 1), and the column a field is in, as the file is written. */
export function positionOf(
  rows: BundleRows,
  file: string,
  sourcedId: string,
  column: string,
): { line: number; column: number } {
  const index = rows[file].findIndex((row) => row.sourcedId === sourcedId);
  const columns = [...new Set(rows[file].flatMap((row) => Object.keys(row)))];
  return { line: index + 2, column: columns.indexOf(column) + 1 };
}

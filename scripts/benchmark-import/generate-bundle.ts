import { stringify } from 'csv-stringify';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ONEROSTER_FILES } from '../../src/roster/manifest';
import { columnsOf, ONEROSTER_COLUMNS } from '../../src/roster/oneroster-columns';

/**
 * A large school as a OneRoster 1.1 bundle, written for the import benchmark: the sizes the issue
 * names (100,000 users, 3,000 classes, 200,000 enrollments, 5,000,000 results) by default.
 * 80% of users are students in homerooms of 80, each homeroom takes two scheduled classes with a
 * teacher and 32 line items each, and every student has a result on them until the count is reached.
 * Each file has some of the binding's columns, named as oneroster-columns.ts names them.
 */
export interface BundleSize {
  readonly users: number;
  readonly classes: number;
  readonly enrollments: number;
  readonly results: number;
}

export const ISSUE_SIZE: BundleSize = { users: 100_000, classes: 3_000, enrollments: 200_000, results: 5_000_000 };

/** The issue's sizes times `scale` (a fraction), for a run on a smaller machine or a busy one. */
export function scaledSize(scale: number): BundleSize {
  const of = (count: number) => Math.max(1, Math.round(count * scale));
  return {
    users: of(ISSUE_SIZE.users),
    classes: Math.max(3, of(ISSUE_SIZE.classes)),
    enrollments: of(ISSUE_SIZE.enrollments),
    results: of(ISSUE_SIZE.results),
  };
}

const LINE_ITEMS_PER_SECTION = 32;

type Row = readonly (string | number)[];

async function writeFile(
  folder: string,
  name: string,
  header: readonly string[],
  rows: Iterable<Row>,
): Promise<number> {
  const output = createWriteStream(join(folder, name));
  const csv = stringify({ record_delimiter: 'windows' });
  csv.pipe(output);
  let count = 0;
  for (const row of [header, ...rows]) {
    if (!csv.write(row)) await new Promise((resolve) => csv.once('drain', resolve));
    count += 1;
  }
  csv.end();
  await finished(output);
  return count - 1;
}

/** A file's columns but status and dateLastModified, which a bulk bundle may leave out. */
function withoutRowStatus(columns: readonly string[]): string[] {
  return columns.filter((column) => column !== 'status' && column !== 'dateLastModified');
}

function* range(count: number): Iterable<number> {
  for (let index = 0; index < count; index += 1) yield index;
}

/** How the users and classes of a bundle of that size are divided. */
function layoutOf(size: BundleSize) {
  const homerooms = Math.floor(size.classes / 3);
  const sections = size.classes - homerooms;
  const students = Math.floor(size.users * 0.8);
  const teachers = Math.max(sections, Math.floor(size.users * 0.05));
  const guardians = size.users - students - teachers;
  const perHomeroom = Math.ceil(students / homerooms);
  return { homerooms, sections, students, teachers, guardians, perHomeroom };
}

export async function generateBundle(folder: string, size: BundleSize = ISSUE_SIZE): Promise<void> {
  await mkdir(folder, { recursive: true });
  const { homerooms, sections, students, teachers, guardians, perHomeroom } = layoutOf(size);
  await writeFile(
    folder,
    'manifest.csv',
    ['propertyName', 'value'],
    [
      ['oneroster.version', '1.1'],
      ...ONEROSTER_FILES.map((file) => [`file.${file}`, file === 'demographics' ? 'absent' : 'bulk']),
    ],
  );
  await writeFile(folder, 'orgs.csv', columnsOf('orgs', ['sourcedId', 'name', 'type']), [
    ['org-1', 'مدرسة المستقبل', 'school'],
  ]);
  await writeFile(folder, 'academicSessions.csv', withoutRowStatus(ONEROSTER_COLUMNS.academicSessions), [
    ['y', '2026/2027', 'schoolYear', '2026-09-01', '2027-06-30', '', '2027'],
    ['t1', 'الفصل الأول', 'term', '2026-09-01', '2027-01-15', 'y', '2027'],
    ['t2', 'الفصل الثاني', 'term', '2027-01-16', '2027-06-30', 'y', '2027'],
  ]);
  await writeFile(folder, 'courses.csv', columnsOf('courses', ['sourcedId', 'title', 'courseCode', 'orgSourcedId']), [
    ['math', 'الرياضيات', 'MTH', 'org-1'],
    ['sci', 'العلوم', 'SCI', 'org-1'],
  ]);
  const sectionOf = (index: number) => ({
    homeroom: index % homerooms,
    course: Math.floor(index / homerooms) % 2 ? 'sci' : 'math',
  });
  await writeFile(
    folder,
    'classes.csv',
    columnsOf('classes', [
      'sourcedId',
      'title',
      'grades',
      'courseSourcedId',
      'classCode',
      'classType',
      'schoolSourcedId',
      'termSourcedIds',
      'metadata.homeroomSourcedId',
    ]),
    (function* () {
      for (const index of range(homerooms))
        yield [
          `hr-${index}`,
          `الصف ${index}`,
          String((index % 12) + 1).padStart(2, '0'),
          'math',
          `S${index}`,
          'homeroom',
          'org-1',
          'y',
          '',
        ];
      for (const index of range(sections)) {
        const { homeroom, course } = sectionOf(index);
        yield [`sec-${index}`, `${course} ${homeroom}`, '01', course, '', 'scheduled', 'org-1', 't1', `hr-${homeroom}`];
      }
    })(),
  );
  await writeFile(
    folder,
    'users.csv',
    columnsOf('users', [
      'sourcedId',
      'enabledUser',
      'orgSourcedIds',
      'role',
      'username',
      'givenName',
      'familyName',
      'phone',
      'agentSourcedIds',
    ]),
    (function* () {
      for (const index of range(students))
        yield [
          `st-${index}`,
          'true',
          'org-1',
          'student',
          `st-${index}`,
          'طالب',
          `رقم ${index}`,
          '',
          `gu-${index % guardians}`,
        ];
      for (const index of range(teachers))
        yield [
          `te-${index}`,
          'true',
          'org-1',
          'teacher',
          `te-${index}`,
          'Teacher',
          `${index}`,
          `05${String(10_000_000 + index)}`,
          '',
        ];
      for (const index of range(guardians))
        yield [
          `gu-${index}`,
          'true',
          'org-1',
          'parent',
          `gu-${index}`,
          'Parent',
          `${index}`,
          `05${String(20_000_000 + index)}`,
          '',
        ];
    })(),
  );
  await writeFile(
    folder,
    'enrollments.csv',
    columnsOf('enrollments', ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role']),
    (function* () {
      let written = 0;
      for (const index of range(students)) {
        yield [`en-h-${index}`, `hr-${Math.floor(index / perHomeroom)}`, 'org-1', `st-${index}`, 'student'];
        written += 1;
      }
      for (const index of range(sections)) {
        yield [`en-t-${index}`, `sec-${index}`, 'org-1', `te-${index % teachers}`, 'teacher'];
        written += 1;
      }
      for (let index = 0; written < size.enrollments && index < students * 2; index += 1) {
        const student = Math.floor(index / 2);
        const homeroom = Math.floor(student / perHomeroom);
        yield [`en-s-${index}`, `sec-${homeroom + (index % 2) * homerooms}`, 'org-1', `st-${student}`, 'student'];
        written += 1;
      }
    })(),
  );
  await writeFile(folder, 'categories.csv', columnsOf('categories', ['sourcedId', 'title']), [['quiz', 'اختبار قصير']]);
  await writeFile(
    folder,
    'lineItems.csv',
    columnsOf('lineItems', [
      'sourcedId',
      'title',
      'assignDate',
      'dueDate',
      'classSourcedId',
      'categorySourcedId',
      'gradingPeriodSourcedId',
      'resultValueMin',
      'resultValueMax',
    ]),
    (function* () {
      for (const section of range(sections)) {
        for (const item of range(LINE_ITEMS_PER_SECTION)) {
          yield [
            `li-${section}-${item}`,
            `اختبار ${item + 1}`,
            '2026-10-01',
            '2026-10-01',
            `sec-${section}`,
            'quiz',
            't1',
            '0',
            '10',
          ];
        }
      }
    })(),
  );
  await writeFile(
    folder,
    'results.csv',
    columnsOf('results', ['sourcedId', 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'score', 'scoreDate']),
    resultRows(size.results, students, perHomeroom, homerooms, sections),
  );
}

/**
 * A delta bundle for a bundle of that size: `count` of its results with a new score, each
 * modified after the bulk import, and every other file absent.
 */
export async function writeResultsDelta(folder: string, size: BundleSize, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  const { homerooms, sections, students, perHomeroom } = layoutOf(size);
  const modified = new Date().toISOString();
  await writeFile(
    folder,
    'manifest.csv',
    ['propertyName', 'value'],
    [
      ['oneroster.version', '1.1'],
      ['file.results', 'delta'],
    ],
  );
  await writeFile(
    folder,
    'results.csv',
    // A delta's rows carry their status and time: every column of the binding's but the comment.
    ONEROSTER_COLUMNS.results.filter((column) => column !== 'comment'),
    (function* () {
      for (const [sourcedId, lineItem, student, status, score, date] of resultRows(
        count,
        students,
        perHomeroom,
        homerooms,
        sections,
      )) {
        yield [sourcedId, 'active', modified, lineItem, student, status, (Number(score) + 1) % 11, date];
      }
    })(),
  );
}

/** Each student's results on the line items of their homeroom's sections, until `count`. */
export function* resultRows(
  count: number,
  students: number,
  perHomeroom: number,
  homerooms: number,
  sections: number,
): Iterable<Row> {
  let written = 0;
  for (let item = 0; item < LINE_ITEMS_PER_SECTION; item += 1) {
    for (let student = 0; student < students; student += 1) {
      const homeroom = Math.floor(student / perHomeroom);
      for (let section = homeroom; section < sections; section += homerooms) {
        if (written >= count) return;
        yield [
          `re-${section}-${item}-${student}`,
          `li-${section}-${item}`,
          `st-${student}`,
          'fully graded',
          (student + item) % 11,
          '2026-10-02',
        ];
        written += 1;
      }
    }
  }
}

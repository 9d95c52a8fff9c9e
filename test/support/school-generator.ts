import fc from 'fast-check';
import { ONEROSTER_FILES } from '../../src/roster/manifest';
import type { GeneratedPhone } from './generated-values';
import { type BundleRows, smallSchool } from './roster-bundle';
import { type SchoolPlan, schoolPlan } from './school-plan';

/**
 * Valid OneRoster 1.1 schools for property tests, small and of every shape the import must read
 * alike: homerooms and scheduled classes, pupils with a homeroom or scheduled classes only,
 * teachers enrolled once per term or only in a homeroom, guardians, demographics, line items and
 * results, `tobedeleted` rows a bulk import passes over, and one or two schools of a district.
 * Rows are the CSV files' fields by header name (roster-bundle.ts writes them).
 */
export type Row = Record<string, string>;

/** What each phone number written in users.csv is to be stored as, by user sourcedId. */
export type PhoneBook = Map<string, GeneratedPhone>;

export interface GeneratedSchool {
  readonly rows: BundleRows;
  readonly phones: PhoneBook;
  /** The school orgs' sourcedIds, the first the school a district's tests import. */
  readonly schools: readonly string[];
}

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length];

const TERM_DATES: Record<string, [string, string]> = {
  t1: ['2026-09-01', '2027-01-15'],
  t2: ['2027-01-16', '2027-06-30'],
};

/** The rows of one school, its records' sourcedIds starting with `prefix`, built part by part. */
class SchoolBuilder {
  readonly rows = {
    courses: [] as Row[],
    classes: [] as Row[],
    users: [] as Row[],
    enrollments: [] as Row[],
    demographics: [] as Row[],
    lineItems: [] as Row[],
    results: [] as Row[],
  };
  private homerooms: Row[] = [];
  private scheduled: Row[] = [];
  /** The pupils of each scheduled class. */
  private readonly taught = new Map<string, string[]>();

  constructor(
    private readonly plan: SchoolPlan,
    private readonly school: string,
    private readonly prefix: string,
    private readonly phones: PhoneBook,
  ) {}

  private id(kind: string, index: number): string {
    return `${this.prefix}${kind}${index + 1}`;
  }

  /** The class section a scheduled class is taught to: a homeroom, or (past the last) pupils without one. */
  private sectionOf(index: number): number {
    return this.plan.scheduled[index].section % (this.homerooms.length + 1);
  }

  private classesOf(section: number): Row[] {
    return this.scheduled.filter((_row, index) => this.sectionOf(index) === section);
  }

  private klass(sourcedId: string, title: string, course: string, classType: string, terms: string): Row {
    const row = { sourcedId, title, grades: '07', courseSourcedId: course, classCode: '', classType };
    return { ...row, schoolSourcedId: this.school, termSourcedIds: terms };
  }

  classes(): void {
    const { courses } = this.rows;
    this.plan.courses.forEach((title, index) => {
      courses.push({ sourcedId: this.id('c', index), title, courseCode: `C${index + 1}`, orgSourcedId: this.school });
    });
    this.homerooms = this.plan.homerooms.map((title, index) =>
      this.klass(this.id('hr', index), title, courses[0].sourcedId, 'homeroom', 'y2026'),
    );
    this.scheduled = this.plan.scheduled.map((entry, index) => {
      const course = pick(courses, entry.course).sourcedId;
      return this.klass(this.id('k', index), entry.title, course, 'scheduled', entry.terms);
    });
    this.rows.classes.push(...this.homerooms, ...this.scheduled);
  }

  private user(sourcedId: string, role: string, person: SchoolPlan['guardians'][number], agents = ''): void {
    this.rows.users.push({
      sourcedId,
      enabledUser: 'true',
      orgSourcedIds: this.school,
      role,
      username: sourcedId,
      givenName: person.given,
      familyName: person.family,
      phone: person.phone?.written ?? '',
      agentSourcedIds: agents,
      password: `secret-${sourcedId}`,
    });
    if (person.phone) this.phones.set(sourcedId, person.phone);
  }

  private enrol(klass: string, user: string, role: string, term?: string): void {
    const { enrollments } = this.rows;
    enrollments.push({
      sourcedId: `${this.prefix}e${enrollments.length + 1}`,
      classSourcedId: klass,
      schoolSourcedId: this.school,
      userSourcedId: user,
      role,
      beginDate: term ? TERM_DATES[term][0] : '',
      endDate: term ? TERM_DATES[term][1] : '',
    });
  }

  pupils(): void {
    const { guardians, students } = this.plan;
    guardians.forEach((guardian, index) => {
      this.user(this.id('g', index), guardian.role, guardian);
    });
    const withoutHomeroom = this.homerooms.length;
    students.forEach((student, index) => {
      const sourcedId = this.id('s', index);
      const guardian = student.guardian === undefined || guardians.length === 0 ? undefined : student.guardian;
      this.user(
        sourcedId,
        'student',
        { ...student, role: 'student' },
        guardian === undefined ? '' : this.id('g', guardian % guardians.length),
      );
      // A pupil without a homeroom needs a scheduled class of pupils without one, or is in no class at all.
      const section =
        student.homeroom === undefined && this.classesOf(withoutHomeroom).length > 0
          ? withoutHomeroom
          : (student.homeroom ?? 0) % this.homerooms.length;
      if (section < withoutHomeroom) this.enrol(this.homerooms[section].sourcedId, sourcedId, 'student');
      const offered = this.classesOf(section);
      const classes = new Set(offered.length === 0 ? [] : student.classes.map((at) => pick(offered, at).sourcedId));
      if (section === withoutHomeroom) classes.add(offered[0].sourcedId);
      for (const klass of classes) {
        this.enrol(klass, sourcedId, 'student');
        this.taught.set(klass, [...(this.taught.get(klass) ?? []), sourcedId]);
      }
      if (student.demographics) this.rows.demographics.push({ sourcedId, ...student.demographics });
    });
  }

  teachers(): void {
    this.plan.teachers.forEach((teacher, index) => {
      const sourcedId = this.id('t', index);
      this.user(sourcedId, 'teacher', { ...teacher, role: 'teacher' });
      if (teacher.homeroomOnly) {
        this.enrol(pick(this.homerooms, index).sourcedId, sourcedId, 'teacher');
        return;
      }
      for (const klass of new Set(teacher.classes.map((at) => pick(this.scheduled, at)))) {
        // One enrolment per term of the year, as SIS write a teacher's year: the class's own terms or not.
        if (teacher.perTerm) for (const term of ['t1', 't2']) this.enrol(klass.sourcedId, sourcedId, 'teacher', term);
        else this.enrol(klass.sourcedId, sourcedId, 'teacher');
      }
    });
  }

  gradebook(): void {
    const { lineItems, results } = this.rows;
    this.plan.lineItems.forEach((item, index) => {
      const klass = pick(this.scheduled, item.klass);
      lineItems.push({
        sourcedId: this.id('li', index),
        title: item.title,
        assignDate: '2026-10-01',
        dueDate: '2026-10-01',
        classSourcedId: klass.sourcedId,
        categorySourcedId: item.category,
        gradingPeriodSourcedId: klass.termSourcedIds.split(',')[0],
        resultValueMin: '0',
        resultValueMax: String(item.max),
      });
    });
    lineItems.forEach((item, itemIndex) => {
      (this.taught.get(item.classSourcedId) ?? []).forEach((student, index) => {
        const draw = this.plan.scores[(itemIndex * 3 + index) % this.plan.scores.length];
        // Some pupils have no result for an item; the rest a score within its range, halves included.
        if (draw % 4 === 0) return;
        results.push({
          sourcedId: `${this.prefix}r${results.length + 1}`,
          lineItemSourcedId: item.sourcedId,
          studentSourcedId: student,
          scoreStatus: 'fully graded',
          score: String(((draw % 21) / 20) * Number(item.resultValueMax)),
          scoreDate: '2026-10-02',
        });
      });
    });
  }

  /** Rows a bulk import passes over: a user and an enrolment the SIS marks tobedeleted. */
  deletedRows(): void {
    const { users, enrollments } = this.rows;
    users.push({ ...users[users.length - 1], sourcedId: `${this.prefix}gone-user`, status: 'tobedeleted' });
    enrollments.push({ ...enrollments[0], sourcedId: `${this.prefix}gone-enrolment`, status: 'tobedeleted' });
  }
}

function buildSchool(plan: SchoolPlan, school: string, prefix: string, phones: PhoneBook): BundleRows {
  const builder = new SchoolBuilder(plan, school, prefix, phones);
  builder.classes();
  builder.pupils();
  builder.teachers();
  builder.gradebook();
  if (plan.deletedRows) builder.deletedRows();
  return builder.rows;
}

/** The district's org, the shared sessions and categories, and each school's org. */
function sharedRows(schools: readonly string[]): BundleRows {
  const base = smallSchool();
  return {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      ...ONEROSTER_FILES.map((name) => ({ propertyName: `file.${name}`, value: 'bulk' })),
    ],
    orgs: [
      { sourcedId: 'dist-1', name: 'District One', type: 'district', parentSourcedId: '' },
      ...schools.map((sourcedId, index) => ({
        sourcedId,
        name: ['مدرسة الأمل', 'Sakura 学校 🌸'][index],
        type: 'school',
        parentSourcedId: 'dist-1',
      })),
    ],
    academicSessions: base.academicSessions,
    categories: base.categories,
  };
}

function merged(parts: BundleRows[]): BundleRows {
  const rows: BundleRows = {};
  for (const part of parts)
    for (const [file, list] of Object.entries(part)) rows[file] = [...(rows[file] ?? []), ...list];
  return rows;
}

/** A school of one org, or a district of two (`sch-1`, `sch-2`) sharing a teacher when drawn so. */
export function generatedSchool(options: { schools: 1 | 2 }): fc.Arbitrary<GeneratedSchool> {
  return fc
    .tuple(fc.array(schoolPlan, { minLength: options.schools, maxLength: options.schools }), fc.boolean())
    .map(([plans, shareTeacher]) => {
      const schools = plans.map((_plan, index) => `sch-${index + 1}`);
      const phones: PhoneBook = new Map();
      const parts = plans.map((plan, index) => buildSchool(plan, schools[index], `${'ab'[index]}-`, phones));
      const rows = merged([sharedRows(schools), ...parts]);
      if (shareTeacher && schools.length === 2) {
        // The first school's first teacher also teaches in the second school's first class.
        const teacher = rows.users.find((row) => row.sourcedId === 'a-t1') as Row;
        teacher.orgSourcedIds = 'sch-1,sch-2';
        enrolShared(rows, teacher.sourcedId);
      }
      return { rows: withoutEmptyFiles(rows), phones, schools };
    });
}

/** A file without rows is left out and declared `absent`, as SIS exports leave it. */
export function withoutEmptyFiles(rows: BundleRows): BundleRows {
  const kept = Object.fromEntries(Object.entries(rows).filter(([, list]) => list.length > 0));
  kept.manifest = rows.manifest.map((row) => {
    const file = row.propertyName.startsWith('file.') ? row.propertyName.slice('file.'.length) : undefined;
    return file ? { ...row, value: kept[file] ? 'bulk' : 'absent' } : row;
  });
  return kept;
}

function enrolShared(rows: BundleRows, teacher: string): void {
  const klass = rows.classes.find((row) => row.schoolSourcedId === 'sch-2' && row.classType === 'scheduled') as Row;
  rows.enrollments.push({
    sourcedId: 'b-shared-teacher',
    classSourcedId: klass.sourcedId,
    schoolSourcedId: 'sch-2',
    userSourcedId: teacher,
    role: 'teacher',
    beginDate: '',
    endDate: '',
  });
}

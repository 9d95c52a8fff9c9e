import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { ROOT } from '../support/cli';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine, type EngineUnderTest } from '../support/engines';
import { callJson } from '../support/json-calls';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { startTestService } from '../support/service';
import { get } from '../support/soap';
import { openTestStore } from '../support/stores';

/**
 * A teacher enrolled in a class once per term (as SIS exports write a year-long class taught in
 * two semesters) is one teacher of that class: each subject and each group is listed once. A
 * teacher enrolled in a homeroom alone teaches it the homeroom's course, and has that group.
 */
function schoolWithTermEnrolments(): BundleRows {
  const rows = smallSchool();
  const enrolment = (sourcedId: string, klass: string, user: string, beginDate: string) => ({
    sourcedId,
    classSourcedId: klass,
    schoolSourcedId: 'sch-1',
    userSourcedId: user,
    role: 'teacher',
    beginDate,
  });
  // t-1 teaches math-7a in both terms, and t-2 sci-7a: an enrolment each term.
  rows.enrollments.push(enrolment('e7-t2', 'math-7a', 't-1', '2027-01-16'));
  rows.enrollments.push(enrolment('e8-t2', 'sci-7a', 't-2', '2027-01-16'));
  // t-3 is the homeroom teacher of 7B and teaches no scheduled class.
  rows.users.push({ ...rows.users.find((user) => user.sourcedId === 't-2'), sourcedId: 't-3', username: 't-3' });
  rows.enrollments.push(enrolment('e10', 'hr-7b', 't-3', ''));
  return rows;
}

/**
 * A school imported from `path` into a fresh store of the engine, then served on a real port on
 * the day `today`: the service, the store's settings, and each record's id by "kind sourcedId".
 */
function servedSchool(engine: EngineUnderTest, path: () => string, today: string) {
  const served = {
    service: undefined as RunningService | undefined,
    settings: {} as Record<string, string>,
    ids: new Map<string, number>(),
    id: (kind: string, sourcedId: string) => String(served.ids.get(`${kind} ${sourcedId}`)),
    json: async (endpoint: string, operation: string, parameters: Record<string, string>) => {
      const response = await callJson(String(served.service?.url), endpoint, operation, parameters);
      expect(response.status).toBe(200);
      return response.body.d as Array<Record<string, unknown>>;
    },
  };
  beforeAll(async () => {
    served.settings = engine.freshStoreSettings();
    const store = await openTestStore(served.settings);
    try {
      expect(problemsOf(await importBundle(store, path()))).toEqual([]);
      for (const row of await store.db.selectFrom('roster_ids').select(['kind', 'sourced_id', 'id']).execute())
        served.ids.set(`${row.kind} ${row.sourced_id}`, row.id);
    } finally {
      await store.close();
    }
    served.service = await startTestService(
      { ...served.settings, CONTRACT: 'typed' },
      { now: () => new Date(`${today}T09:00:00Z`) },
    );
  });
  afterAll(() => served.service?.close());
  return served;
}

describeEachEngine("a teacher's enrolments per term and in a homeroom, on the wire", (engine) => {
  const { fresh, exported } = exportingStores(engine);
  const school = servedSchool(engine, () => writeBundle(schoolWithTermEnrolments()), '2026-11-22');
  const { id, json } = school;

  test("a teacher's groups are each listed once", async () => {
    const groups = await json('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: id('teachers', 't-1') });
    expect(groups.map((group) => [group.ClassNameEn, group.SubjectNameEn, group.StudentCount])).toEqual([
      ['الصف السابع أ', 'Mathematics', 2],
      ['الصف السابع ب', 'Mathematics', 1],
    ]);
  });

  test("a teacher's subjects in a class, and a student's subjects, are each listed once", async () => {
    const taught = await json('/GetTeacherSubjects.asmx', 'GetTeacherSubjectsByID', {
      Tid: id('teachers', 't-1'),
      TClassid: id('classes', 'hr-7a'),
    });
    expect(taught.map((subject) => subject.NameEn)).toEqual(['Mathematics']);
    const subjects = await json('/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', { STDid: id('students', 's1') });
    expect(subjects.map((subject) => [subject.NameEn, subject.TeacherNameEn])).toEqual([
      ['Mathematics', 'Mona Saleh'],
      ['Science', 'Yusuf Karim'],
    ]);
    // The typed SOAP answer over HTTP GET holds one SubjectInfo per subject too.
    const typed = await get(
      `${school.service?.url}/GetStudentsSubjects.asmx/GetStudentSubjectsByID?STDid=${id('students', 's1')}`,
    );
    expect(typed.text.match(/<SubjectInfo>/g)).toHaveLength(2);
  });

  test('a teacher enrolled in a homeroom alone has its group: the homeroom and its course', async () => {
    const groups = await json('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: id('teachers', 't-3') });
    expect(groups.map((group) => [group.ClassNameEn, group.SubjectNameEn, group.StudentCount])).toEqual([
      ['الصف السابع ب', 'Mathematics', 1],
    ]);
  });

  test("a delta enrolling a teacher in a homeroom it does not list gives the homeroom's course", async () => {
    const store = await openTestStore(school.settings);
    try {
      const delta = writeBundle({
        manifest: [
          { propertyName: 'manifest.version', value: '1.0' },
          { propertyName: 'oneroster.version', value: '1.1' },
          { propertyName: 'file.enrollments', value: 'delta' },
        ],
        enrollments: [
          {
            sourcedId: 'e11',
            status: 'active',
            dateLastModified: '2026-11-20T08:00:00Z',
            classSourcedId: 'hr-7a',
            schoolSourcedId: 'sch-1',
            userSourcedId: 't-2',
            role: 'teacher',
          },
        ],
      });
      const outcome = await importBundle(store, delta);
      expect(problemsOf(outcome)).toEqual([]);
      expect(outcome.mode).toBe('delta');
    } finally {
      await store.close();
    }
    const groups = await json('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: id('teachers', 't-2') });
    expect(groups.map((group) => [group.ClassNameEn, group.SubjectNameEn])).toEqual([
      ['الصف السابع أ', 'Mathematics'],
      ['الصف السابع أ', 'Science'],
    ]);
  });

  test('the school exports and imports back as the same school', async () => {
    const store = await openTestStore(school.settings);
    try {
      const copy = await fresh();
      const back = await importBundle(copy, await exported(store));
      expect(problemsOf(back)).toEqual([]);
      expect(await schoolRows(copy)).toEqual(await schoolRows(store));
    } finally {
      await store.close();
    }
  });
});

/**
 * The Ed-Fi LMS sample (../shared/oneroster-samples, as CI has it) enrols each teacher in its class
 * once per semester: each teacher has one group, each student each subject once.
 */
const EDFI_SAMPLE = join(ROOT, '..', 'shared', 'oneroster-samples', 'edfi-lms-sample');
const withSample = existsSync(EDFI_SAMPLE) || process.env.CI === 'true' ? describeEachEngine : () => undefined;

withSample('the Ed-Fi sample, one enrolment per semester, on the wire', (engine) => {
  const { id, json } = servedSchool(engine, () => EDFI_SAMPLE, '2020-11-02');

  test("each teacher's group once, each student's subject once", async () => {
    const groups = await json('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', {
      Tid: id('teachers', '207270'),
    });
    expect(groups.map((group) => [group.SubjectNameEn, group.StudentCount])).toEqual([['Algebra I', 8]]);
    const subjects = await json('/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', {
      STDid: id('students', '604863'),
    });
    expect(subjects.map((subject) => subject.NameEn).sort()).toEqual(['Algebra I', 'English I']);
  });
});

import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import { OneRosterProvider, schoolOf } from '../support/oneroster-provider';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { openTestStore } from '../support/stores';

/**
 * A secondary school's export with scheduled classes only: each student's class section is
 * inferred (classCode, then grade, else none), each inference a warning, nothing refused
 * (docs/import.md, "Class sections without homerooms").
 */
function scheduledOnly(edit: (rows: BundleRows) => void = () => undefined): BundleRows {
  const rows = smallSchool();
  rows.classes = rows.classes.filter((row) => row.classType !== 'homeroom');
  for (const row of rows.classes) {
    row.classCode = row.sourcedId.endsWith('7a') ? '7A' : '7B';
    delete row['metadata.homeroomSourcedId'];
  }
  rows.enrollments = rows.enrollments.filter((row) => !row.classSourcedId.startsWith('hr-'));
  const science = rows.classes.find((row) => row.sourcedId === 'sci-7a');
  if (science) rows.classes.push({ ...science, sourcedId: 'sci-7b', title: 'Science 7B', classCode: '7B' });
  rows.enrollments.push({ ...rows.enrollments[0], sourcedId: 'e10', classSourcedId: 'sci-7a' });
  rows.enrollments.push({ ...rows.enrollments[0], sourcedId: 'e11', classSourcedId: 'sci-7b', userSourcedId: 's3' });
  // The service's own files name the homerooms; an SIS export has none of them.
  for (const own of ['attendance', 'classNotes', 'examSlots', 'exams']) delete rows[own];
  edit(rows);
  return rows;
}

const kinds = (outcome: Awaited<ReturnType<typeof importBundle>>) =>
  outcome.problems.warnings().warnings.map((warning) => warning.kind);

describeEachEngine('class sections without homerooms', (engine) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(engine.freshStoreSettings());
  });
  afterEach(() => store.close());

  const sectionOf = async (studentSourcedId: string) =>
    store.db
      .selectFrom('roster_ids as ids')
      .innerJoin('student_records as record', 'record.student_id', 'ids.id')
      .leftJoin('classes as class', 'class.id', 'record.class_id')
      .select(['class.section', 'record.class_id'])
      .where('ids.kind', '=', 'students')
      .where('ids.sourced_id', '=', studentSourcedId)
      .executeTakeFirstOrThrow();

  test('the classCode the scheduled classes share is the section, one warning per section with its rows', async () => {
    const outcome = await importBundle(store, writeBundle(scheduledOnly()));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    expect((await sectionOf('s1')).section).toBe('7A');
    expect((await sectionOf('s3')).section).toBe('7B');
    const warnings = outcome.problems.warnings().warnings.filter((w) => w.kind === 'section-from-class-code');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ file: 'enrollments.csv', line: 2 });
    expect(warnings[0].message).toContain('classCode "7A" of classes.csv for 2 students (enrollments.csv:2, 3, 8)');
    // Every scheduled class is taught to its section, so marks and teachers land.
    expect(await store.db.selectFrom('marks').select('id').execute()).toHaveLength(4);
    expect(await store.db.selectFrom('teacher_assignments').select('id').execute()).toHaveLength(3);
  });

  test('without a shared code, the students grade in users.csv is the section', async () => {
    const rows = scheduledOnly((bundle) => {
      for (const row of bundle.classes) row.classCode = '';
      for (const row of bundle.users) if (row.role === 'student') row.grades = '07';
    });
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect((await sectionOf('s1')).section).toBe('grade-07');
    expect((await sectionOf('s3')).section).toBe('grade-07');
    expect(kinds(outcome)).toContain('section-from-grade');
    const grade = await store.db
      .selectFrom('classes')
      .innerJoin('grade_levels', 'grade_levels.id', 'classes.grade_level_id')
      .select('grade_levels.ordinal')
      .executeTakeFirstOrThrow();
    expect(grade.ordinal).toBe(7);
  });

  test('a homeroom the scheduled classes name in metadata.homeroomSourcedId is the section', async () => {
    const rows = scheduledOnly((bundle) => {
      const homeroom = smallSchool().classes.find((row) => row.sourcedId === 'hr-7a');
      if (homeroom) bundle.classes.unshift(homeroom);
      for (const row of bundle.classes) if (row.sourcedId !== 'hr-7a') row['metadata.homeroomSourcedId'] = 'hr-7a';
    });
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect((await sectionOf('s3')).section).toBe('7A');
  });

  test('with nothing to go by, the student is enrolled with no section and still served (nil, null)', async () => {
    const settings = engine.freshStoreSettings();
    const served = await openTestStore(settings);
    const rows = scheduledOnly((bundle) => {
      for (const row of bundle.classes) {
        row.classCode = '';
        row.grades = '';
      }
    });
    const outcome = await importBundle(served, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect(kinds(outcome)).toEqual(expect.arrayContaining(['no-class-section', 'section-of-its-own']));
    const s1 = await served.db
      .selectFrom('roster_ids')
      .select('id')
      .where('kind', '=', 'students')
      .where('sourced_id', '=', 's1')
      .executeTakeFirstOrThrow();
    // Marks of a student without a section hang off their record in the year.
    expect(await served.db.selectFrom('marks').select('id').execute()).toHaveLength(4);
    await served.close();
    let service: RunningService | undefined;
    try {
      service = await startTestService({ ...settings, CONTRACT: 'typed' });
      const path = '/GetStudentsInformation.asmx';
      const json = await callJson(service.url, path, 'GetStudentInfoById', { StudentId: String(s1.id) });
      expect(json.status).toBe(200);
      expect(json.body.d).toMatchObject({ StudentId: s1.id, ClassId: null, GradeLevel: null, ClassNameAr: null });
      const soap = await soap11(
        `${service.url}${path}`,
        `<GetStudentInfoById xmlns="${NS}"><StudentId>${s1.id}</StudentId></GetStudentInfoById>`,
        `"${NS}GetStudentInfoById"`,
      );
      expect(soap.status).toBe(200);
      expect(soap.text).toContain('<ClassId xsi:nil="true" />');
      expect(soap.text).toContain('<GradeLevel xsi:nil="true" />');
    } finally {
      await service?.close();
    }
  });
});

describeEachEngine('years without a schoolYear session', (engine) => {
  test('terms with no parent make their year from the schoolYear column (a warning); no grades needed', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const rows = smallSchool();
      rows.academicSessions = rows.academicSessions.filter((row) => row.type !== 'schoolYear');
      for (const row of rows.academicSessions) if (row.parentSourcedId === 'y2026') row.parentSourcedId = '';
      for (const row of rows.classes) row.termSourcedIds = row.termSourcedIds.replace('y2026', 't1');
      const homeroom = rows.classes.find((row) => row.sourcedId === 'hr-7b');
      if (homeroom) homeroom.grades = '';
      const outcome = await importBundle(store, writeBundle(rows));
      expect(problemsOf(outcome)).toEqual([]);
      const years = await store.db.selectFrom('academic_years').select(['name', 'starts_on', 'ends_on']).execute();
      expect(years).toEqual([{ name: '2026/2027', starts_on: '2026-09-01', ends_on: '2027-06-30' }]);
      const warning = outcome.problems.warnings().warnings.find((w) => w.kind === 'year-from-terms');
      expect(warning).toMatchObject({ file: 'academicSessions.csv', line: 2 });
      expect(warning?.message).toContain('the terms at academicSessions.csv lines 2, 3');
      const ungraded = await store.db
        .selectFrom('classes')
        .innerJoin('grade_levels', 'grade_levels.id', 'classes.grade_level_id')
        .select(['classes.section', 'grade_levels.name_en'])
        .where('classes.section', '=', '7B')
        .executeTakeFirstOrThrow();
      expect(ungraded.name_en).toBe('Ungraded');
    } finally {
      await store.close();
    }
  });
});

describeEachEngine('a student a delta adds to scheduled classes', (engine) => {
  /** s4, enrolled in two classes of classCode 7A, with a mark in Math 7A: as users, enrollments and results rows. */
  function newStudent(school: BundleRows): BundleRows {
    // After the sync that loaded the school, so that a delta sync asks for them.
    const changedAt = new Date(Date.now() + 1000).toISOString();
    const row = (file: string, sourcedId: string, fields: Record<string, string>) => ({
      ...(school[file].find((candidate) => candidate.sourcedId === sourcedId) as Record<string, string>),
      ...fields,
      status: 'active',
      dateLastModified: changedAt,
    });
    return {
      users: [row('users', 's2', { sourcedId: 's4', givenName: 'Laila', identifier: '1004', phone: '' })],
      enrollments: [
        row('enrollments', 'e4', { sourcedId: 'e40', userSourcedId: 's4' }),
        row('enrollments', 'e10', { sourcedId: 'e41', userSourcedId: 's4' }),
      ],
      results: [row('results', 'r1', { sourcedId: 'r40', studentSourcedId: 's4', score: '6.5' })],
    };
  }

  /** The new student over the wire: their class section, and their mark in the class's subject. */
  async function servedStudent(settings: Record<string, string>, store: Store) {
    const idOf = async (kind: string, sourcedId: string) =>
      (
        await store.db
          .selectFrom('roster_ids')
          .select('id')
          .where('kind', '=', kind)
          .where('sourced_id', '=', sourcedId)
          .executeTakeFirstOrThrow()
      ).id;
    const student = await idOf('students', 's4');
    const { subject_id } = await store.db
      .selectFrom('assessments')
      .select('subject_id')
      .where('id', '=', await idOf('assessments', 'li1'))
      .executeTakeFirstOrThrow();
    const marks = await store.db
      .selectFrom('marks')
      .innerJoin('student_records', 'student_records.id', 'marks.student_record_id')
      .select('marks.score')
      .where('student_records.student_id', '=', student)
      .execute();
    expect(marks).toEqual([{ score: 6.5 }]);
    await store.close();
    const service = await startTestService({ ...settings, CONTRACT: 'typed' });
    try {
      const info = await callJson(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', {
        StudentId: String(student),
      });
      expect(info.status).toBe(200);
      const marks = await callJson(service.url, '/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', {
        StudnetID: String(student),
        SubjectID: String(subject_id),
      });
      expect(marks.status).toBe(200);
      return { info: info.body.d, marks: JSON.stringify(marks.body.d) };
    } finally {
      await service.close();
    }
  }

  test('by a CSV delta is placed in the section those classes are taught to, and its marks stored', async () => {
    const settings = engine.freshStoreSettings();
    const store = await openTestStore(settings);
    const school = scheduledOnly();
    expect(problemsOf(await importBundle(store, writeBundle(school)))).toEqual([]);
    const outcome = await importBundle(store, writeBundle(deltaBundle(newStudent(school))));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    const served = await servedStudent(settings, store);
    expect(served.info).toMatchObject({ ClassNameEn: '7A' });
    expect(served.marks).toContain('6.5');
  });

  test('by a delta sync likewise', async () => {
    const settings = engine.freshStoreSettings();
    const store = await openTestStore(settings);
    const school = scheduledOnly();
    const provider = new OneRosterProvider(schoolOf(school, '1.2'));
    await provider.start();
    try {
      const sis = readSisSettings({ ...provider.settings('1.2'), SIS_PAGE_SIZE: '4' });
      const run = { full: false, dryRun: false, skipInvalid: false, fromIdentifier: false, strict: false };
      const options = { ...run, defaultCountryCode: '966', wait: async () => undefined };
      expect(await syncSchool(store, sis, options)).toMatchObject({ outcome: 'done', mode: 'bulk' });
      const added = schoolOf(newStudent(school), '1.2');
      for (const [collection, records] of added) for (const record of records) provider.put(collection, record);
      const delta = await syncSchool(store, sis, options);
      expect(delta).toMatchObject({ outcome: 'done', mode: 'delta', problems: 0, message: '' });
    } finally {
      await provider.close();
    }
    const served = await servedStudent(settings, store);
    expect(served.info).toMatchObject({ ClassNameEn: '7A' });
    expect(served.marks).toContain('6.5');
  });
});

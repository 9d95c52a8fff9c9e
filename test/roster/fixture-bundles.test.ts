import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import type { ImportOptions, ImportOutcome } from '../../src/roster/import-school';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { openTestStore } from '../support/stores';

/**
 * Bundles written as SIS export them (test/roster/fixtures): a secondary school with scheduled
 * classes only, and a university-style sample (quoted headers, terms without a schoolYear session,
 * no grades, two students enrolled as teachers). Each imports with the warnings it should give,
 * refuses only the wrong rows, and is served over JSON and SOAP on a real port.
 */
const FIXTURES = join(__dirname, 'fixtures');

describeEachEngine('SIS bundles, imported and served', (engine) => {
  let service: RunningService;
  const ids = new Map<string, number>();
  let scheduledKinds: string[] = [];
  let universityProblems: Array<{ file: string; line: number; rule: string }> = [];
  let universityKinds: string[] = [];

  beforeAll(async () => {
    const settings = engine.freshStoreSettings();
    const store: Store = await openTestStore(settings);
    const other = await openTestStore(engine.freshStoreSettings());
    try {
      const scheduled = await importBundle(store, join(FIXTURES, 'scheduled-only'));
      expect(problemsOf(scheduled)).toEqual([]);
      scheduledKinds = scheduled.problems.warnings().warnings.map((warning) => warning.kind);
      const university = await importBundle(other, join(FIXTURES, 'university'), { skipInvalid: true });
      expect(university.written).toBe(true);
      universityProblems = problemsOf(university).map(({ file, line, rule }) => ({ file, line, rule }));
      universityKinds = university.problems.warnings().warnings.map((warning) => warning.kind);
      for (const row of await store.db.selectFrom('roster_ids').select(['sourced_id', 'id']).execute()) {
        ids.set(row.sourced_id, row.id);
      }
    } finally {
      await store.close();
      await other.close();
    }
    service = await startTestService({ ...settings, CONTRACT: 'typed' });
  });
  afterAll(() => service?.close());

  const json = async (path: string, operation: string, parameters: Record<string, string>) => {
    const response = await callJson(service.url, path, operation, parameters);
    expect(response.status).toBe(200);
    return response.body.d;
  };
  const id = (sourcedId: string) => String(ids.get(sourcedId));

  test('the scheduled-only school infers its sections from classCode and grade, with warnings', () => {
    expect(scheduledKinds.filter((kind) => kind === 'section-from-class-code')).toHaveLength(2);
    expect(scheduledKinds).toContain('section-from-grade');
  });

  test('a student is served with the section of their classes (JSON and SOAP)', async () => {
    expect(await json('/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: id('st-1') })).toMatchObject({
      NameEn: 'Amina Khan',
      ClassNameEn: '7A',
      GradeLevel: 7,
      Gender: 'F',
    });
    const soap = await soap11(
      `${service.url}/GetStudentsInformation.asmx`,
      `<GetStudentInfoById xmlns="${NS}"><StudentId>${id('st-4')}</StudentId></GetStudentInfoById>`,
      `"${NS}GetStudentInfoById"`,
    );
    expect(soap.text).toContain('<ClassNameEn>grade-08</ClassNameEn>');
    expect(soap.text).toContain('<GradeLevel>8</GradeLevel>');
  });

  test("a student's subjects and marks, a teacher's groups", async () => {
    const subjects = (await json('/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', {
      STDid: id('st-1'),
    })) as Array<Record<string, unknown>>;
    expect(subjects.map((subject) => [subject.NameEn, subject.TeacherNameEn])).toEqual([
      ['Mathematics 7', 'Maria Garcia'],
      ['English 7', 'John Smith'],
    ]);
    const marks = (await json('/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', {
      StudnetID: id('st-1'),
      SubjectID: id('crs-ma7'),
    })) as Array<Record<string, unknown>>;
    expect(marks.map((mark) => [mark.AssessmentNameEn, mark.Score, mark.MaxScore])).toEqual([['Quiz 1', 18, 20]]);
    const groups = (await json('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: id('te-1') })) as Array<
      Record<string, unknown>
    >;
    expect(groups.map((group) => group.ClassNameEn).sort()).toEqual(['7A', '7B', 'grade-08']);
  });

  test('the university sample refuses only the students enrolled as teachers, and says what it inferred', () => {
    expect(universityProblems).toEqual([
      { file: 'enrollments.csv', line: 10, rule: 'unknown-value' },
      { file: 'enrollments.csv', line: 11, rule: 'unknown-value' },
    ]);
    expect(universityKinds).toEqual(expect.arrayContaining(['year-from-terms', 'no-class-section']));
  });
});

/**
 * A school served from its own fixture bundle: imported into a fresh store, then a service on a
 * real port over that store. Returns the ids the import gave by sourcedId, and the outcome.
 */
async function serveFixture(settings: Record<string, string>, folder: string, options: Partial<ImportOptions> = {}) {
  const store = await openTestStore(settings);
  try {
    const outcome = await importBundle(store, join(FIXTURES, folder), options);
    const ids = new Map<string, number>();
    for (const row of await store.db.selectFrom('roster_ids').select(['sourced_id', 'id']).execute()) {
      ids.set(row.sourced_id, row.id);
    }
    return { outcome, ids, service: await startTestService({ ...settings, CONTRACT: 'typed' }) };
  } finally {
    await store.close();
  }
}

const warningsOf = (outcome: ImportOutcome) =>
  outcome.problems.warnings().warnings.map(({ file, line, column, kind }) => `${file}:${line}:${column} ${kind}`);

describeEachEngine('a OneRoster 1.2 bundle and a district, imported and served', (engine) => {
  let v12: Awaited<ReturnType<typeof serveFixture>>;
  let district: Awaited<ReturnType<typeof serveFixture>>;

  beforeAll(async () => {
    v12 = await serveFixture(engine.freshStoreSettings(), 'oneroster-1-2');
    district = await serveFixture(engine.freshStoreSettings(), 'district', { school: 's-north' });
  });
  afterAll(async () => {
    await v12?.service.close();
    await district?.service.close();
  });

  const json = async (url: string, path: string, operation: string, parameters: Record<string, string>) => {
    const response = await callJson(url, path, operation, parameters);
    expect(response.status).toBe(200);
    return response.body.d as Array<Record<string, unknown>> & Record<string, unknown>;
  };

  test('the 1.2 bundle imports; a text score its scale does not map is a warning at its field', () => {
    expect(problemsOf(v12.outcome)).toEqual([]);
    expect(v12.outcome.written).toBe(true);
    expect(warningsOf(v12.outcome)).toEqual(['results.csv:5:10 text-score-unmapped']);
    // A result not submitted, with no score, is no mark and no problem; Merit is 80 on the scale.
    expect(v12.outcome.counts.marks).toBe(2);
  });

  test('1.2: names, class section, subjects, a mark from a text score, a teacher of a secondary role', async () => {
    const { service, ids } = v12;
    const id = (sourcedId: string) => String(ids.get(sourcedId));
    expect(
      await json(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: id('u-s1') }),
    ).toMatchObject({ NameEn: 'Lina Haddad', ClassNameEn: 'Class 6A', GradeLevel: 6, Gender: 'F' });
    const subjects = await json(service.url, '/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', {
      STDid: id('u-s1'),
    });
    expect(subjects.map((subject) => [subject.NameEn, subject.TeacherNameEn])).toEqual([
      ['Science 6', 'Rosa Novak'],
      ['Art 6', 'Kofi Mensah'],
    ]);
    const marks = async (student: string) =>
      (
        await json(service.url, '/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', {
          StudnetID: id(student),
          SubjectID: id('c-art6'),
        })
      ).map((mark) => [mark.AssessmentNameEn, mark.Score, mark.MaxScore]);
    expect(await marks('u-s1')).toEqual([['Portfolio', 80, 100]]);
    expect(await marks('u-s2')).toEqual([]);
    const soap = await soap11(
      `${service.url}/GetTeacherGroups.asmx`,
      `<GetTeacherGrpupsByID xmlns="${NS}"><Tid>${id('u-t2')}</Tid></GetTeacherGrpupsByID>`,
      `"${NS}GetTeacherGrpupsByID"`,
    );
    expect(soap.status).toBe(200);
    expect(soap.text).toContain('<ClassNameEn>Class 6A</ClassNameEn>');
  });

  test('the district: --school north keeps its own rows and the shared teacher, served on both wires', async () => {
    expect(problemsOf(district.outcome)).toEqual([]);
    expect(district.outcome.problems.notes().map((note) => note.kind)).toContain('other-schools');
    const { service, ids } = district;
    const id = (sourcedId: string) => String(ids.get(sourcedId));
    expect(ids.has('p-201')).toBe(false);
    expect(
      await json(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: id('p-101') }),
    ).toMatchObject({ NameEn: 'Noah Brooks', ClassNameEn: 'Grade 4 Blue', GradeLevel: 4 });
    const marks = await json(service.url, '/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', {
      StudnetID: id('p-102'),
      SubjectID: id('n-mus4'),
    });
    expect(marks.map((mark) => [mark.AssessmentNameEn, mark.Score])).toEqual([['Rhythm test', 7]]);
    const groups = await json(service.url, '/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: id('t-mus') });
    expect(groups.map((group) => group.ClassNameEn)).toEqual(['Grade 4 Blue']);
    const soap = await soap11(
      `${service.url}/GetStudentsSubjects.asmx`,
      `<GetStudentSubjectsByID xmlns="${NS}"><STDid>${id('p-101')}</STDid></GetStudentSubjectsByID>`,
      `"${NS}GetStudentSubjectsByID"`,
    );
    expect(soap.text).toContain('<NameEn>Music 4</NameEn>');
    expect(soap.text).toContain('<TeacherNameEn>Hanna Lind</TeacherNameEn>');
  });
});

/**
 * One bundle per way SIS exports differ from the binding's letter (test/roster/fixtures/quirks):
 * each is the same school, so each gives the store the rows the plain one gives, with the warning
 * or note it should give and nothing more.
 */
describeEachEngine('bundles with real-world spellings', (engine) => {
  const QUIRKS: Record<string, { warnings: string[]; notes?: string[] }> = {
    'quoted-headers': { warnings: [] },
    // userIDs is a column the store does not use: it is listed as not read, and so warns of nothing.
    'header-case': {
      warnings: ['users.csv:1:1 header-case', 'users.csv:1:5 header-case'],
      notes: ['users.csv: not read: userIDs'],
    },
    bom: { warnings: [] },
    'cr-line-ends': { warnings: [] },
    'unknown-columns': {
      warnings: [],
      notes: [
        'classes.csv: not read: vendorSectionKey,',
        'users.csv: not read: userIds, identifier, email, password, metadata.locker, homeLanguage',
      ],
    },
    'empty-status': { warnings: [] },
    'manifest-typo': { warnings: ['manifest.csv:10:1 manifest'] },
    'present-absent': { warnings: ['manifest.csv:10:2 manifest'] },
  };
  let plain: Record<string, unknown[]>;

  beforeAll(async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const outcome = await importBundle(store, join(FIXTURES, 'quirks', 'empty-status'));
      expect(problemsOf(outcome)).toEqual([]);
      plain = await schoolRows(store);
    } finally {
      await store.close();
    }
  });

  test.each(Object.keys(QUIRKS))('%s imports as the same school, with the warnings it should give', async (name) => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const outcome = await importBundle(store, join(FIXTURES, 'quirks', name));
      expect(problemsOf(outcome)).toEqual([]);
      expect(warningsOf(outcome)).toEqual(QUIRKS[name].warnings);
      // Columns the store does not use are said once per file, in a note that names them.
      const notes = outcome.problems
        .notes()
        .filter((note) => note.kind === 'columns-not-read')
        .map((note) => `${note.file}: ${note.message}`);
      for (const note of QUIRKS[name].notes ?? []) expect(notes).toContainEqual(expect.stringContaining(note));
      const rows = await schoolRows(store);
      // The manifest that misspells or marks absent demographics.csv gives no birth dates or genders.
      const demographicsRead = !['manifest-typo', 'present-absent'].includes(name);
      if (demographicsRead) expect(rows).toEqual(plain);
      else expect(rows.students).toHaveLength(plain.students.length);
    } finally {
      await store.close();
    }
  });
});

import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { importBundle, problemsOf } from '../support/roster-import';
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

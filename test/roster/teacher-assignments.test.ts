import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { startTestService } from '../support/service';
import { openTestStore } from '../support/stores';

/**
 * A teacher enrolled several times to teach one subject to one class section (in two scheduled
 * classes of the subject in the section, or once per term) holds one assignment: one row in the
 * store, the operations answering as for one enrolment, and the assignment stays while any of
 * the enrolments does.
 */
const enrolment = (sourcedId: string, klass: string, user: string, extra: Record<string, string> = {}) => ({
  sourcedId,
  classSourcedId: klass,
  schoolSourcedId: 'sch-1',
  userSourcedId: user,
  role: 'teacher',
  beginDate: '',
  ...extra,
});

/** The small school with t-1 also teaching math-7a-2 (a second math class of 7A) and math-7a again in term 2. */
function schoolWithSecondEnrolments(): BundleRows {
  const rows = smallSchool();
  const math = rows.classes.find((row) => row.sourcedId === 'math-7a') as Record<string, string>;
  rows.classes.push({
    ...math,
    sourcedId: 'math-7a-2',
    title: 'Math 7A, group 2',
    'metadata.homeroomSourcedId': 'hr-7a',
  });
  rows.enrollments.push(enrolment('e11', 'math-7a-2', 't-1'));
  rows.enrollments.push(enrolment('e7-t2', 'math-7a', 't-1', { beginDate: '2027-01-16' }));
  return rows;
}

describeEachEngine('a teacher enrolled twice to teach one subject to one section', (engine) => {
  const { fresh, exported } = exportingStores(engine);
  let settings: Record<string, string>;
  let service: RunningService | undefined;
  let teacher = '';

  const assignmentsOf = async (store: Store, teacherId: number) =>
    (await store.db.selectFrom('teacher_assignments').selectAll().where('teacher_id', '=', teacherId).execute()).map(
      (row) => [row.class_id, row.subject_id],
    );
  const groups = async () => {
    const response = await callJson(String(service?.url), '/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', {
      Tid: teacher,
    });
    expect(response.status).toBe(200);
    return (response.body.d as Array<Record<string, unknown>>).map((group) => [group.ClassNameEn, group.SubjectNameEn]);
  };
  const withStore = async <T>(use: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openTestStore(settings);
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  };
  const idOf = async (store: Store, kind: string, sourcedId: string) =>
    (
      await store.db
        .selectFrom('roster_ids')
        .select('id')
        .where('kind', '=', kind)
        .where('sourced_id', '=', sourcedId)
        .executeTakeFirstOrThrow()
    ).id;
  /** A delta of enrollments.csv rows of t-1, modified after the import. */
  const delta = (...rows: Array<Record<string, string>>) =>
    writeBundle(
      deltaBundle({ enrollments: rows.map((row) => ({ ...row, dateLastModified: '2026-11-20T08:00:00Z' })) }),
    );
  const ending = (sourcedId: string, klass: string) => enrolment(sourcedId, klass, 't-1', { status: 'tobedeleted' });

  beforeAll(async () => {
    settings = engine.freshStoreSettings();
    await withStore(async (store) => {
      expect(problemsOf(await importBundle(store, writeBundle(schoolWithSecondEnrolments())))).toEqual([]);
      teacher = String(await idOf(store, 'teachers', 't-1'));
    });
    service = await startTestService({ ...settings, CONTRACT: 'typed' });
  });
  afterAll(() => service?.close());

  test('has one assignment row per section and subject, and its groups are those of one enrolment', async () => {
    await withStore(async (store) => {
      const section = await idOf(store, 'classes', 'hr-7a');
      const math = await idOf(store, 'subjects', 'c-math');
      const rows = await assignmentsOf(store, Number(teacher));
      expect(rows.filter(([klass, subject]) => klass === section && subject === math)).toHaveLength(1);
      expect(rows).toHaveLength(2);
    });
    expect(await groups()).toEqual([
      ['الصف السابع أ', 'Mathematics'],
      ['الصف السابع ب', 'Mathematics'],
    ]);
  });

  test('exports and imports back as the same school', async () => {
    await withStore(async (store) => {
      const copy = await fresh();
      expect(problemsOf(await importBundle(copy, await exported(store)))).toEqual([]);
      expect(await schoolRows(copy)).toEqual(await schoolRows(store));
    });
  });

  test('a delta: a new enrolment teaching the same adds no row; the assignment stays while one remains', async () => {
    const before = await withStore((store) => assignmentsOf(store, Number(teacher)));
    const changesOf = (path: string) =>
      withStore(async (store) => {
        const outcome = await importBundle(store, path);
        expect(problemsOf(outcome)).toEqual([]);
        return outcome.changes?.teacher_assignments;
      });
    expect(await changesOf(delta(enrolment('e12', 'math-7a-2', 't-1', { status: 'active' })))).toBeUndefined();
    // The first enrolment ends: the others hold the assignment.
    expect(await changesOf(delta(ending('e7', 'math-7a')))).toBeUndefined();
    expect(await withStore((store) => assignmentsOf(store, Number(teacher)))).toEqual(before);
    expect(await groups()).toHaveLength(2);
    expect(await changesOf(delta(ending('e11', 'math-7a-2'), ending('e12', 'math-7a-2')))).toBeUndefined();
    expect(await withStore((store) => assignmentsOf(store, Number(teacher)))).toEqual(before);
    // The last one ends: so does the assignment.
    expect(await changesOf(delta(ending('e7-t2', 'math-7a')))).toEqual({ added: 0, changed: 0, deleted: 1 });
    expect(await withStore((store) => assignmentsOf(store, Number(teacher)))).toHaveLength(1);
    expect(await groups()).toEqual([['الصف السابع ب', 'Mathematics']]);
  });
});

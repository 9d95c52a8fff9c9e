import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, keptFieldsOf, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A delta bundle holds only what changed: rows newer than the store's copy (by dateLastModified)
 * replace it, new rows are added, status=tobedeleted rows leave the store with what hangs off them.
 */

describeEachEngine('a delta import', (engine) => {
  let store: Store;
  const school = smallSchool();
  const userRow = (sourcedId: string) => school.users.find((row) => row.sourcedId === sourcedId) ?? {};
  const resultRow = (sourcedId: string) => school.results.find((row) => row.sourcedId === sourcedId) ?? {};
  const idOf = async (kind: string, sourcedId: string) =>
    (
      await store.db
        .selectFrom('roster_ids')
        .select('id')
        .where('kind', '=', kind)
        .where('sourced_id', '=', sourcedId)
        .executeTakeFirstOrThrow()
    ).id;
  const nameOf = async (sourcedId: string) =>
    (
      await store.db
        .selectFrom('students')
        .select('name_ar')
        .where('id', '=', await idOf('students', sourcedId))
        .executeTakeFirst()
    )?.name_ar;

  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
    expect(problemsOf(await importBundle(store, writeBundle(school)))).toEqual([]);
  });
  afterAll(() => store.close());

  test('changes, adds and deletes what it lists and leaves the rest as it was', async () => {
    const before = await schoolRows(store);
    const s2 = await idOf('students', 's2');
    const changed = '2026-11-01T10:00:00Z';
    const delta = deltaBundle({
      users: [
        { ...userRow('s2'), status: 'active', dateLastModified: changed, givenName: 'Sarah' },
        { sourcedId: 's3', status: 'tobedeleted', dateLastModified: changed },
      ],
      results: [
        { ...resultRow('r1'), status: 'active', dateLastModified: changed, score: '9.5' },
        { sourcedId: 'r2', status: 'tobedeleted', dateLastModified: changed },
        { ...resultRow('r3'), sourcedId: 'r5', status: 'active', dateLastModified: changed, score: '20' },
      ],
    });
    const dry = await importBundle(store, writeBundle(delta), { dryRun: true });
    const outcome = await importBundle(store, writeBundle(delta));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.mode).toBe('delta');
    // Per kind, marks included, the dry run's figures; what goes with s3 (its enrolment, its mark r4,
    // its attendance) is counted among the deleted of its kind. math-7b, left without its one pupil,
    // is taught to a section of its grade, with its line item and its teacher's assignment.
    expect(outcome.changes).toEqual({
      students: { added: 0, changed: 1, deleted: 1 },
      student_records: { added: 0, changed: 0, deleted: 1 },
      marks: { added: 1, changed: 1, deleted: 2 },
      attendance: { added: 0, changed: 0, deleted: 1 },
      classes: { added: 1, changed: 0, deleted: 0 },
      class_subjects: { added: 0, changed: 1, deleted: 0 },
      assessments: { added: 0, changed: 1, deleted: 0 },
      teacher_assignments: { added: 0, changed: 1, deleted: 0 },
    });
    expect(dry.changes).toEqual(outcome.changes);
    expect(outcome.rows).toBe(5);
    expect(await nameOf('s2')).toBe('Sarah Ali');
    expect(await idOf('students', 's2')).toBe(s2);
    // The delta changed s2's name and gave no demographics: the birth date and gender stay.
    expect(
      await store.db.selectFrom('students').select(['birth_date', 'gender']).where('id', '=', s2).executeTakeFirst(),
    ).toEqual({ birth_date: '2013-09-12', gender: 'F' });
    const after = await schoolRows(store);
    const marks = after.marks as Array<{ id: number; score: number }>;
    const scoreOf = async (sourcedId: string) => {
      const id = await idOf('marks', sourcedId);
      return (await store.db.selectFrom('marks').select('score').where('id', '=', id).executeTakeFirst())?.score;
    };
    expect(await scoreOf('r1')).toBe(9.5);
    expect(await scoreOf('r2')).toBeUndefined();
    expect(await scoreOf('r5')).toBe(20);
    // s3 is gone with its enrolment, its mark, its attendance and its guardian link.
    expect(after.students).toHaveLength(2);
    expect(after.student_records).toHaveLength(2);
    expect(after.attendance).toHaveLength(1);
    expect(after.student_guardians).toHaveLength(2);
    expect(marks).toHaveLength(3);
    expect(after.classes).toHaveLength(before.classes.length + 1);
    for (const table of ['schools', 'terms', 'subjects', 'teachers', 'guardians', 'exams', 'devices']) {
      expect(after[table]).toEqual(before[table]);
    }
  });

  test('a delta of results alone changes the marks it lists', async () => {
    const delta = deltaBundle({
      results: [{ ...resultRow('r1'), status: 'active', dateLastModified: '2026-11-02T10:00:00Z', score: '7' }],
    });
    const outcome = await importBundle(store, writeBundle(delta));
    expect(problemsOf(outcome)).toEqual([]);
    const id = await idOf('marks', 'r1');
    expect((await store.db.selectFrom('marks').select('score').where('id', '=', id).executeTakeFirst())?.score).toBe(7);
  });

  test('a row no newer than the store changes nothing', async () => {
    const newer = deltaBundle({
      users: [{ ...userRow('s1'), status: 'active', dateLastModified: '2026-11-05T00:00:00Z', givenName: 'Newer' }],
    });
    const older = deltaBundle({
      users: [{ ...userRow('s1'), status: 'active', dateLastModified: '2026-11-04T00:00:00Z', givenName: 'Older' }],
    });
    expect(problemsOf(await importBundle(store, writeBundle(newer)))).toEqual([]);
    expect(problemsOf(await importBundle(store, writeBundle(older)))).toEqual([]);
    expect(await nameOf('s1')).toBe('Newer خالد العتيبي');
  });

  test('a row no newer than the store leaves what is kept for export as it was', async () => {
    const at = (time: string) => ({ status: 'active', dateLastModified: time });
    const newer = deltaBundle({
      users: [{ ...userRow('s1'), ...at('2026-12-05T00:00:00Z'), email: 'newer@school.example' }],
      results: [{ ...resultRow('r1'), ...at('2026-12-05T00:00:00Z'), comment: 'newer' }],
    });
    const older = deltaBundle({
      users: [{ ...userRow('s1'), ...at('2026-12-04T00:00:00Z'), email: 'older@school.example' }],
      results: [{ ...resultRow('r1'), ...at('2026-12-04T00:00:00Z'), comment: 'older' }],
    });
    expect(problemsOf(await importBundle(store, writeBundle(newer)))).toEqual([]);
    expect(problemsOf(await importBundle(store, writeBundle(older)))).toEqual([]);
    expect(await keptFieldsOf(store, 'users.csv', 's1')).toMatchObject({
      email: 'newer@school.example',
      dateLastModified: '2026-12-05T00:00:00Z',
    });
    expect(await keptFieldsOf(store, 'results.csv', 'r1')).toMatchObject({ comment: 'newer' });
  });

  test('a delta row needs its dateLastModified and status', async () => {
    const outcome = await importBundle(
      store,
      writeBundle(deltaBundle({ users: [{ ...userRow('s1'), status: 'active', dateLastModified: '' }] })),
    );
    expect(outcome.written).toBe(false);
    expect(problemsOf(outcome)).toContainEqual(
      expect.objectContaining({ file: 'users.csv', line: 2, rule: 'missing-value' }),
    );
  });
});

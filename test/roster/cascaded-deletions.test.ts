import type { ImportOutcome } from '../../src/roster/import-school';
import type { Store } from '../../src/store/open-store';
import { SCHOOL_TABLES } from '../../src/store/roster/school-tables';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';

/**
 * A delta that deletes a record deletes what hangs off it in the store too (a class's teachers and
 * assessments, an assessment's marks, a student's records, marks and attendance): each kind counts
 * those among its deleted, once however many deleted records a row hangs off, the same in the dry
 * run as in the real run, and as the store's rows show.
 */
describeEachEngine('deletions that take rows with them', (engine) => {
  const { fresh } = exportingStores(engine);

  const rowCounts = async (store: Store) =>
    Object.fromEntries(Object.entries(await schoolRows(store)).map(([table, rows]) => [table, rows.length]));

  /** Rows of the small school marked tobedeleted in a delta, every other column as it was. */
  const deleting = (file: keyof BundleRows & string, ...sourcedIds: string[]) =>
    smallSchool()
      [file].filter((row) => sourcedIds.includes(row.sourcedId))
      .map((row) => ({ ...row, status: 'tobedeleted', dateLastModified: '2026-11-20T08:00:00Z' }));

  test('are counted per kind, once each, in the dry run and the real run alike', async () => {
    const store = await fresh();
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
    const before = await rowCounts(store);
    // The quiz li1 (marks r1, r2), the pupil s3 (record e3, mark r4, attendance a2) and the homeroom
    // hr-7b (its subject math-7b, t-1's assignment e9, assessment li3, and again e3 and r4).
    const delta = writeBundle(
      deltaBundle({
        classes: deleting('classes', 'hr-7b'),
        users: deleting('users', 's3'),
        lineItems: deleting('lineItems', 'li1'),
      }),
    );
    const dry = await importBundle(store, delta, { dryRun: true });
    expect(problemsOf(dry)).toEqual([]);
    const real = await importBundle(store, delta);
    expect(problemsOf(real)).toEqual([]);
    expect(real.written).toBe(true);
    expect(real.changes).toEqual(dry.changes);
    expect(real.changes).toEqual({
      classes: { added: 0, changed: 0, deleted: 1 },
      class_subjects: { added: 0, changed: 0, deleted: 1 },
      teacher_assignments: { added: 0, changed: 0, deleted: 1 },
      students: { added: 0, changed: 0, deleted: 1 },
      student_records: { added: 0, changed: 0, deleted: 1 },
      assessments: { added: 0, changed: 0, deleted: 2 },
      marks: { added: 0, changed: 0, deleted: 3 },
      attendance: { added: 0, changed: 0, deleted: 1 },
    });
    expectCountsToAddUp(before, real, await rowCounts(store));
  });

  test('a result the delta deletes itself, of a pupil it deletes, is counted once', async () => {
    const store = await fresh();
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
    const before = await rowCounts(store);
    const delta = writeBundle(deltaBundle({ users: deleting('users', 's1'), results: deleting('results', 'r1') }));
    const real = await importBundle(store, delta);
    expect(problemsOf(real)).toEqual([]);
    // s1's record e1, marks r1 (its own row) and r3, attendance a1 and note n1.
    expect(real.changes?.marks).toEqual({ added: 0, changed: 0, deleted: 2 });
    expect(real.changes?.student_notes).toEqual({ added: 0, changed: 0, deleted: 1 });
    expectCountsToAddUp(before, real, await rowCounts(store));
  });
});

/** Every kind's rows after are its rows before, plus what was added, less what was deleted. */
function expectCountsToAddUp(before: Record<string, number>, outcome: ImportOutcome, after: Record<string, number>) {
  for (const table of SCHOOL_TABLES) {
    if (table.name === 'student_guardians') continue;
    const change = outcome.changes?.[table.name] ?? { added: 0, changed: 0, deleted: 0 };
    expect([table.name, before[table.name] + change.added - change.deleted]).toEqual([table.name, after[table.name]]);
  }
}

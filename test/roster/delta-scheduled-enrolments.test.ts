import { describeEachEngine } from '../support/engines';
import { importedDumps } from '../support/imported-dumps';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A delta that takes pupils out of scheduled classes gives the store a bulk import of the changed
 * school gives: a class left without pupils is taught to a section of its own (its code, else its
 * grade), and becomes another name of a class of its subject already there; a pupil without a
 * homeroom left without scheduled classes has no enrolment record; the class's teachers and line
 * items go with it.
 */
const CHANGED = '2026-11-01T10:00:00.000Z';

type Row = Record<string, string>;

/** The small school with `s4`, a pupil without a homeroom in Science 7A alone (placed in 7A by its homeroom). */
function school(extra: { emptyMath?: boolean; secondMath?: boolean } = {}): BundleRows {
  const rows = smallSchool();
  const s3 = rows.users.find((row) => row.sourcedId === 's3') as Row;
  rows.users.push({ ...s3, sourcedId: 's4', username: 's4', identifier: '1004', agentSourcedIds: '' });
  rows.enrollments.push({ ...rows.enrollments[3], sourcedId: 'e10', classSourcedId: 'sci-7a', userSourcedId: 's4' });
  rows.results.push({ ...rows.results[2], sourcedId: 'r5', studentSourcedId: 's4' });
  if (extra.secondMath) {
    // A second Math class of 7A's pupil s2, taught by t-1 as math-7a is: one subject of 7A with math-7a.
    const math = rows.classes.find((row) => row.sourcedId === 'math-7a') as Row;
    rows.classes.push({ ...math, sourcedId: 'math-7a2', title: 'Math 7A, second' });
    rows.enrollments.push(
      { ...rows.enrollments[4], sourcedId: 'e11', classSourcedId: 'math-7a2', userSourcedId: 's2' },
      { ...rows.enrollments[6], sourcedId: 'e12', classSourcedId: 'math-7a2', userSourcedId: 't-1' },
    );
    const item = rows.lineItems.find((row) => row.sourcedId === 'li1') as Row;
    rows.lineItems.push({ ...item, sourcedId: 'li4', title: 'Quiz 7A second', classSourcedId: 'math-7a2' });
    rows.results.push({ ...rows.results[1], sourcedId: 'r6', lineItemSourcedId: 'li4' });
  }
  if (extra.emptyMath) {
    // A Math class without pupils or classCode: taught to the section of its grade, `grade-07`.
    const math = rows.classes.find((row) => row.sourcedId === 'math-7b') as Row;
    rows.classes.push({ ...math, sourcedId: 'math-7c', title: 'Math 7C' });
  }
  return rows;
}

/** The school without these enrolments and results, and the delta that says so. */
function without(rows: BundleRows, enrolments: string[], results: string[]): { end: BundleRows; delta: BundleRows } {
  const end = structuredClone(rows);
  end.enrollments = end.enrollments.filter((row) => !enrolments.includes(row.sourcedId));
  end.results = end.results.filter((row) => !results.includes(row.sourcedId));
  const deleted = (list: Row[], ids: string[]) =>
    list
      .filter((row) => ids.includes(row.sourcedId))
      .map((row) => ({ ...row, status: 'tobedeleted', dateLastModified: CHANGED }));
  const delta = deltaBundle({
    enrollments: deleted(rows.enrollments, enrolments),
    results: deleted(rows.results, results),
  });
  return { end, delta };
}

describeEachEngine('a delta that takes pupils out of scheduled classes', (engine) => {
  const { imported, close } = importedDumps(engine);
  afterAll(close);

  test("a class's last pupil taken out: the class, its teacher and line item go to its grade's section", async () => {
    const { end, delta } = without(school(), ['e6'], ['r4']);
    const bulk = await imported(end);
    expect(bulk.tables.class_subjects).toContain(
      'math-7b {"class_id":"classes:section:y2026:grade-07","subject_id":"subjects:c-math"}',
    );
    expect((await imported(school(), delta)).tables).toEqual(bulk.tables);
  });

  test('a class left without pupils in the section of a class of its subject becomes its other name', async () => {
    const { end, delta } = without(school({ emptyMath: true }), ['e6'], ['r4']);
    const bulk = await imported(end);
    expect(bulk.tables.class_subjects.filter((row) => row.includes('grade-07'))).toHaveLength(1);
    expect((await imported(school({ emptyMath: true }), delta)).tables).toEqual(bulk.tables);
  });

  test('an emptied class and the class a bulk import made one with it are placed apart', async () => {
    // math-7a2 is stored as math-7a's other name; emptied, math-7a goes to grade-07, math-7a2 stays in 7A.
    const { end, delta } = without(school({ secondMath: true }), ['e4', 'e5'], ['r1', 'r2']);
    const bulk = await imported(end);
    expect(bulk.tables.class_subjects).toEqual(
      expect.arrayContaining([
        'math-7a {"class_id":"classes:section:y2026:grade-07","subject_id":"subjects:c-math"}',
        'math-7a2 {"class_id":"classes:hr-7a","subject_id":"subjects:c-math"}',
      ]),
    );
    expect(bulk.tables.teacher_assignments).toEqual(
      expect.arrayContaining([
        'e7 {"teacher_id":"teachers:t-1","class_id":"classes:section:y2026:grade-07","subject_id":"subjects:c-math"}',
        'e12 {"teacher_id":"teachers:t-1","class_id":"classes:hr-7a","subject_id":"subjects:c-math"}',
      ]),
    );
    expect(await imported(school({ secondMath: true }), delta)).toEqual(bulk);
  });

  test('a pupil taken out of one of two classes made one stays with the other, the two still one', async () => {
    const { end, delta } = without(school({ secondMath: true }), ['e5'], ['r2']);
    const bulk = await imported(end);
    expect(bulk.tables.class_subjects.filter((row) => row.includes('c-math'))).toHaveLength(2);
    const changed = await imported(school({ secondMath: true }), delta);
    expect(changed.tables).toEqual(bulk.tables);
    expect(changed.kept).toEqual(bulk.kept);
  });

  test("a class deleted under another class's name takes its own rows alone and names nothing after", async () => {
    const rows = school({ secondMath: true });
    const end = structuredClone(rows);
    end.classes = end.classes.filter((row) => row.sourcedId !== 'math-7a2');
    end.enrollments = end.enrollments.filter((row) => row.classSourcedId !== 'math-7a2');
    end.lineItems = end.lineItems.filter((row) => row.sourcedId !== 'li4');
    end.results = end.results.filter((row) => row.sourcedId !== 'r6');
    const math = rows.classes.find((row) => row.sourcedId === 'math-7a2') as Row;
    const delta = deltaBundle({ classes: [{ ...math, status: 'tobedeleted', dateLastModified: CHANGED }] });
    expect(await imported(rows, delta)).toEqual(await imported(end));
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      for (const bundle of [rows, delta])
        expect(problemsOf(await importBundle(store, writeBundle(bundle)))).toEqual([]);
      const e11 = rows.enrollments.find((row) => row.sourcedId === 'e11') as Row;
      const again = deltaBundle({
        enrollments: [{ ...e11, sourcedId: 'e13', dateLastModified: CHANGED, status: 'active' }],
      });
      const problems = problemsOf(await importBundle(store, writeBundle(again)));
      expect(problems.map((problem) => problem.message)).toEqual([
        expect.stringContaining('classSourcedId "math-7a2" names no class'),
      ]);
    } finally {
      await store.close();
    }
  });

  test('a pupil without a homeroom taken out of their last class has no enrolment record left', async () => {
    const { end, delta } = without(school(), ['e10'], ['r5']);
    const bulk = await imported(end);
    expect(bulk.tables.student_records.some((row) => row.startsWith('record:s4:'))).toBe(false);
    expect((await imported(school(), delta)).tables).toEqual(bulk.tables);
  });

  test('a pupil deleted with their enrolments leaves their last scheduled class a section of its own', async () => {
    const rows = school();
    const { end, delta } = without(rows, ['e6'], ['r4']);
    end.users = end.users.filter((row) => row.sourcedId !== 's3');
    end.enrollments = end.enrollments.filter((row) => row.sourcedId !== 'e3');
    end.attendance = end.attendance.filter((row) => row.studentSourcedId !== 's3');
    end.studentNotes = (end.studentNotes ?? []).filter((row) => row.studentSourcedId !== 's3');
    const s3 = rows.users.find((row) => row.sourcedId === 's3') as Row;
    delta.users = [{ ...s3, status: 'tobedeleted', dateLastModified: CHANGED }];
    const e3 = rows.enrollments.find((row) => row.sourcedId === 'e3') as Row;
    delta.enrollments.push({ ...e3, status: 'tobedeleted', dateLastModified: CHANGED });
    delta.manifest = deltaBundle({ users: [], enrollments: [], results: [] }).manifest;
    expect((await imported(rows, delta)).tables).toEqual((await imported(end)).tables);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import {
  type BundleRows,
  csvText,
  positionOf,
  smallSchool,
  withoutColumn,
  withValue,
  writeBundle,
} from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * Every rule a bundle can break is reported at its file, line and column, and an import with any
 * problem writes nothing: the school imported before stays as it was, row for row.
 */
describeEachEngine('a bundle with bad rows', (engine) => {
  let store: Store;
  let before: Record<string, unknown[]>;

  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
    before = await schoolRows(store);
  });
  afterAll(() => store.close());

  const expectRefused = async (
    rows: BundleRows,
    expected: { file: string; line: number; column: number; rule: string },
  ) => {
    const outcome = await importBundle(store, writeBundle(rows));
    expect(outcome.written).toBe(false);
    expect(problemsOf(outcome)).toContainEqual(expect.objectContaining(expected));
    expect(await schoolRows(store)).toEqual(before);
    return problemsOf(outcome);
  };
  const at = (rows: BundleRows, file: string, sourcedId: string, column: string) => ({
    file: `${file}.csv`,
    ...positionOf(rows, file, sourcedId, column),
  });

  test('a missing required column', async () => {
    const rows = withoutColumn(smallSchool(), 'users', 'familyName');
    const header = Object.keys(rows.users[0]).length;
    const problems = await expectRefused(rows, {
      file: 'users.csv',
      line: 1,
      column: header + 1,
      rule: 'missing-column',
    });
    expect(problems[0].message).toContain('familyName');
  });

  test('a missing required value', async () => {
    const rows = withValue(smallSchool(), 'users', 's2', 'givenName', '');
    await expectRefused(rows, { ...at(rows, 'users', 's2', 'givenName'), rule: 'missing-value' });
  });

  test('a bad date', async () => {
    const rows = withValue(smallSchool(), 'demographics', 's1', 'birthDate', '2013-02-30');
    const problems = await expectRefused(rows, { ...at(rows, 'demographics', 's1', 'birthDate'), rule: 'bad-date' });
    // A day the calendar lacks is named as such, not rolled over into March.
    expect(problems.find((problem) => problem.rule === 'bad-date')?.message).toBe(
      'birthDate "2013-02-30": no such day',
    );
  });

  test('a value not in its list (an unknown enum)', async () => {
    const rows = withValue(smallSchool(), 'users', 't-2', 'role', 'principal');
    await expectRefused(rows, { ...at(rows, 'users', 't-2', 'role'), rule: 'unknown-value' });
  });

  test('a reference to a sourcedId that does not exist', async () => {
    const rows = withValue(smallSchool(), 'enrollments', 'e5', 'classSourcedId', 'no-such-class');
    const problems = await expectRefused(rows, {
      ...at(rows, 'enrollments', 'e5', 'classSourcedId'),
      rule: 'unknown-reference',
    });
    expect(problems[0].message).toContain('no-such-class');
  });

  test('a duplicate sourcedId, in a file read whole and in results', async () => {
    const users = smallSchool();
    users.users.push({ ...users.users[2] });
    await expectRefused(users, {
      file: 'users.csv',
      line: users.users.length + 1,
      column: 1,
      rule: 'duplicate-sourcedId',
    });
    const results = smallSchool();
    results.results.push({ ...results.results[0], score: '3' });
    const problems = await expectRefused(results, {
      file: 'results.csv',
      line: results.results.length + 1,
      column: 1,
      rule: 'duplicate-sourcedId',
    });
    expect(problems.find((problem) => problem.rule === 'duplicate-sourcedId')?.message).toContain('line 2');
  });

  test('a value too long', async () => {
    const rows = withValue(smallSchool(), 'courses', 'c-sci', 'title', 'ع'.repeat(256));
    await expectRefused(rows, { ...at(rows, 'courses', 'c-sci', 'title'), rule: 'too-long' });
  });

  test('a score that is no number, and a time that is no time in an own file', async () => {
    const scores = withValue(smallSchool(), 'results', 'r2', 'score', 'nine');
    await expectRefused(scores, { ...at(scores, 'results', 'r2', 'score'), rule: 'bad-number' });
    const slots = withValue(smallSchool(), 'examSlots', 'es1', 'startTime', '25:00');
    await expectRefused(slots, { ...at(slots, 'examSlots', 'es1', 'startTime'), rule: 'bad-date' });
  });

  test('rows naming an invalid row say so', async () => {
    const rows = withValue(smallSchool(), 'lineItems', 'li1', 'resultValueMax', 'ten');
    const problems = await expectRefused(rows, {
      ...at(rows, 'results', 'r1', 'lineItemSourcedId'),
      rule: 'depends-on-invalid',
    });
    expect(problems.find((problem) => problem.rule === 'depends-on-invalid')?.message).toContain('lineItems.csv:2');
  });

  test('a file the CSV parser cannot read (an unclosed quote) is one problem at its line', async () => {
    const folder = writeBundle(smallSchool());
    const text = csvText(smallSchool().courses).replace('c-sci', '"c-sci');
    writeFileSync(join(folder, 'courses.csv'), text);
    const outcome = await importBundle(store, folder);
    expect(outcome.written).toBe(false);
    expect(problemsOf(outcome)).toContainEqual(
      expect.objectContaining({ file: 'courses.csv', rule: 'bad-file', line: 3 }),
    );
    expect(await schoolRows(store)).toEqual(before);
  });

  test('a bundle without a manifest, or whose manifest names a missing file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'no-manifest-'));
    writeFileSync(join(folder, 'users.csv'), csvText(smallSchool().users));
    expect(problemsOf(await importBundle(store, folder))).toEqual([
      expect.objectContaining({ file: 'manifest.csv', rule: 'bad-file' }),
    ]);
    const rows = smallSchool();
    delete (rows as Partial<BundleRows>).demographics;
    const line = rows.manifest.findIndex((row) => row.propertyName === 'file.demographics') + 2;
    await expectRefused(rows, { file: 'manifest.csv', line, column: 1, rule: 'bad-file' });
  });

  test('--dry-run reports everything and writes nothing, even for a good bundle', async () => {
    const other = withValue(smallSchool(), 'users', 's2', 'givenName', 'Sarah');
    const outcome = await importBundle(store, writeBundle(other), { dryRun: true });
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(false);
    expect(outcome.counts.students).toBe(3);
    expect(await schoolRows(store)).toEqual(before);
  });

  test('--skip-invalid leaves out the bad rows and the rows that depend on them, and writes the rest', async () => {
    const fresh = await openTestStore(engine.freshStoreSettings());
    try {
      const rows = withValue(smallSchool(), 'users', 's3', 'role', 'pupil');
      const outcome = await importBundle(fresh, writeBundle(rows), { skipInvalid: true });
      expect(outcome.written).toBe(true);
      const skipped = problemsOf(outcome).map((problem) => `${problem.file}:${problem.line} ${problem.rule}`);
      expect(skipped).toEqual(
        expect.arrayContaining([
          `users.csv:${positionOf(rows, 'users', 's3', 'role').line} unknown-value`,
          `enrollments.csv:${positionOf(rows, 'enrollments', 'e3', 'userSourcedId').line} depends-on-invalid`,
          `results.csv:${positionOf(rows, 'results', 'r4', 'studentSourcedId').line} depends-on-invalid`,
          `attendance.csv:${positionOf(rows, 'attendance', 'a2', 'studentSourcedId').line} depends-on-invalid`,
        ]),
      );
      const written = await schoolRows(fresh);
      expect(written.students).toHaveLength(2);
      expect(written.marks).toHaveLength(3);
      expect(written.attendance).toHaveLength(1);
      expect(outcome.problems.rowCount).toBeGreaterThanOrEqual(4);
    } finally {
      await fresh.close();
    }
  });
});

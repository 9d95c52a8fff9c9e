import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { deltaBundle, positionOf, smallSchool, withoutColumn, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, keptFieldsOf, problemsOf, schoolRows } from '../support/roster-import';

/**
 * A OneRoster 1.0 users.csv has no enabledUser column, and says `inactive` where 1.1 says
 * enabledUser false: read as 1.1 has it, with a warning naming the file (and the row), the same
 * school as the 1.1 form, exported as 1.1 writes it.
 */
describeEachEngine('a OneRoster 1.0 users.csv', (engine) => {
  const { fresh, exported } = exportingStores(engine);

  /** The small school with t-2 no longer enabled, as 1.1 writes it. */
  const asEleven = () => withValue(smallSchool(), 'users', 't-2', 'enabledUser', 'false');
  /** The same school as a 1.0-era tool writes it: no enabledUser column, t-2 inactive. */
  const asTen = () =>
    withValue(withoutColumn(smallSchool(), 'users', 'enabledUser'), 'users', 't-2', 'status', 'inactive');

  test('is read as its 1.1 form: the same school, a warning at the header and one at the inactive row', async () => {
    const eleven = await fresh();
    expect(problemsOf(await importBundle(eleven, writeBundle(asEleven())))).toEqual([]);
    const ten = await fresh();
    const rows = asTen();
    const outcome = await importBundle(ten, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    expect(await schoolRows(ten)).toEqual(await schoolRows(eleven));
    const status = positionOf(rows, 'users', 't-2', 'status');
    const warnings = outcome.problems.warnings().warnings.filter((warning) => warning.kind.startsWith('oneroster-1-0'));
    expect(warnings).toEqual([
      {
        file: 'users.csv',
        line: 1,
        column: Object.keys(rows.users[0]).length + 1,
        kind: 'oneroster-1-0-enabled-user',
        message: "the header has no enabledUser column (OneRoster 1.0's users.csv): every user is read as enabled",
      },
      {
        file: 'users.csv',
        line: status.line,
        column: status.column,
        kind: 'oneroster-1-0-status',
        message:
          'status "inactive" is OneRoster 1.0\'s: read as 1.1 writes it, status active and enabledUser false ' +
          '(the user is imported, as a user not enabled is)',
      },
    ]);
    // What is kept for export is the 1.1 form, and the export is a 1.1 users.csv that imports back without a word.
    expect(await keptFieldsOf(ten, 'users.csv', 't-2')).toMatchObject({ status: 'active', enabledUser: 'false' });
    const folder = await exported(ten);
    const users = parse(readFileSync(join(folder, 'users.csv')), { columns: true, bom: true }) as Array<
      Record<string, string>
    >;
    expect(users.find((user) => user.sourcedId === 't-2')).toMatchObject({ status: 'active', enabledUser: 'false' });
    expect(users.find((user) => user.sourcedId === 't-1')).toMatchObject({ enabledUser: 'true' });
    const back = await fresh();
    const again = await importBundle(back, folder);
    expect(problemsOf(again)).toEqual([]);
    expect(again.problems.warnings().warnings.filter((warning) => warning.kind.startsWith('oneroster-1-0'))).toEqual(
      [],
    );
    expect(await schoolRows(back)).toEqual(await schoolRows(ten));
  });

  test('a delta that says a stored user is inactive changes the user, and deletes nothing', async () => {
    const store = await fresh();
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
    const before = await schoolRows(store);
    const teacher = { ...smallSchool().users.find((user) => user.sourcedId === 't-2') };
    delete teacher.enabledUser;
    const delta = deltaBundle({
      users: [{ ...teacher, status: 'inactive', dateLastModified: '2026-11-20T08:00:00Z', familyName: 'Karimi' }],
    });
    const outcome = await importBundle(store, writeBundle(delta));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.changes).toEqual({ teachers: { added: 0, changed: 1, deleted: 0 } });
    const after = await schoolRows(store);
    expect(after.teacher_assignments).toEqual(before.teacher_assignments);
    const names = (after.teachers as Array<{ name_ar: string }>).map((row) => row.name_ar);
    expect(names).toContain('Yusuf Karimi');
  });

  test('inactive is no status of any other file: still refused there', async () => {
    const store = await fresh();
    const rows = withValue(smallSchool(), 'courses', 'c-math', 'status', 'inactive');
    const problems = problemsOf(await importBundle(store, writeBundle(rows), { dryRun: true }));
    expect(problems).toContainEqual(
      expect.objectContaining({
        file: 'courses.csv',
        rule: 'unknown-value',
        message: expect.stringContaining('inactive'),
      }),
    );
  });
});

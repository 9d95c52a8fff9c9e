import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import type { ImportOutcome } from '../../src/roster/import-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, csvText, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * Each message names the real cause where it is: the invalid or tobedeleted row a reference finds,
 * the manifest line that marks a file absent. What can be read with a warning is read: a file of a
 * header alone, OneRoster 1.0 header names, an empty manifest value, fields past the header.
 */
describeEachEngine('messages at the cause', (engine) => {
  let store: Store;

  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
  });
  afterAll(() => store.close());

  const dryRun = (folder: string) => importBundle(store, folder, { dryRun: true });
  const warningsOf = (outcome: ImportOutcome) => outcome.problems.warnings().warnings;
  /** The line of a row in its file as writeBundle writes it (the header is line 1). */
  const lineOf = (rows: BundleRows, file: string, sourcedId: string) =>
    rows[file].findIndex((row) => row.sourcedId === sourcedId) + 2;
  const manifestLineOf = (rows: BundleRows, property: string) =>
    rows.manifest.findIndex((row) => row.propertyName === property) + 2;

  test('a guardian named by agentSourcedIds whose own row is invalid: that row is named', async () => {
    const rows = withValue(smallSchool(), 'users', 'g1', 'givenName', '');
    const problems = problemsOf(await dryRun(writeBundle(rows)));
    const agentProblem = problems.find((problem) => problem.line === lineOf(rows, 'users', 's1'));
    expect(agentProblem).toMatchObject({ file: 'users.csv', rule: 'depends-on-invalid' });
    expect(agentProblem?.message).toBe(`user "g1" is the invalid row at users.csv:${lineOf(rows, 'users', 'g1')}`);
  });

  test('a user whose row is tobedeleted: the rows naming it say so, at that row', async () => {
    let rows = withValue(smallSchool(), 'users', 'g1', 'status', 'tobedeleted');
    rows = withValue(rows, 'users', 's3', 'status', 'tobedeleted');
    const problems = problemsOf(await dryRun(writeBundle(rows)));
    const g1 = `users.csv:${lineOf(rows, 'users', 'g1')}`;
    expect(problems).toContainEqual(
      expect.objectContaining({
        file: 'users.csv',
        line: lineOf(rows, 'users', 's1'),
        rule: 'unknown-reference',
        message:
          `agentSourcedIds "g1" names no user in the bundle: ` +
          `its row at ${g1} has status tobedeleted (not imported)`,
      }),
    );
    const enrolment = problems.find((problem) => problem.line === lineOf(rows, 'enrollments', 'e3'));
    expect(enrolment?.message).toContain(`its row at users.csv:${lineOf(rows, 'users', 's3')} has status tobedeleted`);
  });

  test('a course the manifest marks absent: the message names that manifest line', async () => {
    const rows = smallSchool();
    const line = manifestLineOf(rows, 'file.courses');
    rows.manifest[line - 2].value = 'absent';
    delete rows.courses;
    const problems = problemsOf(await dryRun(writeBundle(rows)));
    const course = problems.find((problem) => problem.file === 'classes.csv' && problem.message.includes('c-math'));
    expect(course?.message).toBe(
      'courseSourcedId "c-math" names no course in the bundle: ' +
        `the manifest marks courses.csv absent (manifest.csv:${line})`,
    );
  });

  test('a file of a header alone is an empty file, whatever columns it lacks: the import goes on', async () => {
    const folder = writeBundle(smallSchool());
    writeFileSync(join(folder, 'demographics.csv'), 'id,birthDate\r\n');
    const outcome = await importBundle(store, folder);
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    expect(warningsOf(outcome)).toContainEqual(
      expect.objectContaining({ file: 'demographics.csv', line: 1, kind: 'empty-file' }),
    );
    const students = (await schoolRows(store)).students as Array<{ birth_date: string | null }>;
    expect(students.every((student) => !student.birth_date)).toBe(true);
  });

  test('OneRoster 1.0 header names are read as their 1.1 columns, with a warning: the same school', async () => {
    expect((await importBundle(store, writeBundle(smallSchool()))).written).toBe(true);
    const asEleven = await schoolRows(store);
    const rows = smallSchool();
    rows.users = rows.users.map(({ agentSourcedIds, ...rest }) => ({ ...rest, agents: agentSourcedIds }));
    rows.classes = rows.classes.map(({ termSourcedIds, grades, ...rest }) => ({
      ...rest,
      termSourcedId: termSourcedIds,
      grade: grades,
    }));
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect(await schoolRows(store)).toEqual(asEleven);
    expect(asEleven.student_guardians.length).toBeGreaterThan(0);
    const renamed = warningsOf(outcome).filter((warning) => warning.kind === 'oneroster-1-0-header');
    expect(renamed.map((warning) => [warning.file, warning.message])).toEqual([
      ['classes.csv', 'header "grade" is OneRoster 1.0\'s name of "grades": read as grades'],
      ['classes.csv', 'header "termSourcedId" is OneRoster 1.0\'s name of "termSourcedIds": read as termSourcedIds'],
      ['users.csv', 'header "agents" is OneRoster 1.0\'s name of "agentSourcedIds": read as agentSourcedIds'],
    ]);
  });

  test("a sessions file without 1.1's schoolYear column: each year is its endDate's, with a warning", async () => {
    expect((await importBundle(store, writeBundle(smallSchool()))).written).toBe(true);
    const withColumn = await schoolRows(store);
    const rows = smallSchool();
    rows.academicSessions = rows.academicSessions.map(({ schoolYear, ...rest }) => rest);
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect(await schoolRows(store)).toEqual(withColumn);
    expect(warningsOf(outcome)).toContainEqual(
      expect.objectContaining({ file: 'academicSessions.csv', line: 1, kind: 'school-year-from-end-date' }),
    );
    // Its export (the grading period the store does not hold given back with its year) imports on its own.
    const exported = mkdtempSync(join(tmpdir(), 'school-export-'));
    await exportSchool(store, exported, SILENT_PROGRESS);
    const back = await openTestStore(engine.freshStoreSettings());
    try {
      expect(problemsOf(await importBundle(back, exported))).toEqual([]);
      expect(await schoolRows(back)).toEqual(withColumn);
    } finally {
      await back.close();
    }
  });

  test('an empty manifest value is absent, with a warning at its line', async () => {
    const rows = smallSchool();
    const line = manifestLineOf(rows, 'file.demographics');
    rows.manifest[line - 2].value = '';
    const outcome = await dryRun(writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    expect(warningsOf(outcome)).toContainEqual({
      file: 'manifest.csv',
      line,
      column: 2,
      kind: 'manifest',
      message: 'file.demographics has no value: read as absent',
    });
    expect(outcome.counts.students).toBe(3);
  });

  test('fields past the header are a warning naming the file and line', async () => {
    const rows = smallSchool();
    const folder = writeBundle(rows);
    const lines = csvText(rows.users).split('\n');
    const line = lineOf(rows, 'users', 's2');
    lines[line - 1] += ',surplus';
    writeFileSync(join(folder, 'users.csv'), lines.join('\n'));
    expect(readFileSync(join(folder, 'users.csv'), 'utf8')).toContain('surplus');
    const outcome = await dryRun(folder);
    expect(problemsOf(outcome)).toEqual([]);
    const columns = Object.keys(rows.users[0]).length;
    expect(warningsOf(outcome)).toContainEqual({
      file: 'users.csv',
      line,
      column: columns + 1,
      kind: 'extra-fields',
      message: `the row has ${columns + 1} fields, the header ${columns}: 1 field past the header not read: "surplus"`,
    });
  });
});

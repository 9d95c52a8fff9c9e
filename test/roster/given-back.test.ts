import { join } from 'node:path';
import type { OneRosterVersion } from '../../src/roster/export-school';
import type { Store } from '../../src/store/open-store';
import { bundleRows, exportingStores, type FieldDifference, givenBackDifferences } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';

/**
 * Export gives back what was imported: an imported bundle's export holds every row and every
 * non-empty field of the input (the district org, grading periods, enrolments in scheduled
 * classes, email, location, metadata.* ...), but for the differences docs/import.md lists, and
 * imports back as the same school. A delta changes what is given back and a deleted record leaves it.
 */
const FIXTURES = join(__dirname, 'fixtures');

/** The differences docs/import.md lists: results.csv's status and timestamp form come from the store. */
function documented(difference: FieldDifference): boolean {
  if (difference.file !== 'results.csv') return false;
  if (difference.column === 'status') return difference.output === '';
  return difference.column === 'dateLastModified' && Date.parse(difference.input) === Date.parse(difference.output);
}

/** Each quirk of test/roster/fixtures/quirks, and the rows its import does not read (so not given back). */
const QUIRKS: Record<string, FieldDifference[]> = {
  bom: [],
  'cr-line-ends': [],
  'empty-status': [],
  'header-case': [],
  'manifest-typo': [],
  // demographics.csv is in the bundle but marked absent: not read, so not kept.
  'present-absent': ['us-1', 'us-2'].map((sourcedId) => ({
    file: 'demographics.csv',
    sourcedId,
    column: '*',
    input: 'row',
    output: '',
  })),
  'quoted-headers': [],
  'unknown-columns': [],
};

describeEachEngine('export gives back the imported bundle', (engine) => {
  const { fresh, exported } = exportingStores(engine);
  /** Imports, exports, checks the export imports back as the same school; the undocumented differences. */
  let lastImported: Store;
  const roundTrip = async (
    input: string,
    skipInvalid = false,
    options: { school?: string; version?: OneRosterVersion } = {},
  ) => {
    const store = await fresh();
    lastImported = store;
    expect((await importBundle(store, input, { skipInvalid, school: options.school })).written).toBe(true);
    const output = await exported(store, options.version);
    const again = await fresh();
    const outcome = await importBundle(again, output);
    expect(problemsOf(outcome)).toEqual([]);
    expect(await schoolRows(again)).toEqual(await schoolRows(store));
    return givenBackDifferences(bundleRows(input), bundleRows(output)).filter((difference) => !documented(difference));
  };

  test('the scheduled-only school comes back row by row, enrolments in scheduled classes included', async () => {
    const input = join(FIXTURES, 'scheduled-only');
    expect(await roundTrip(input)).toEqual([]);
  });

  test('the university sample comes back row by row but for the rows refused', async () => {
    const differences = await roundTrip(join(FIXTURES, 'university'), true);
    // Two students enrolled as teachers: refused, so not stored and not given back.
    expect(differences).toEqual([
      { file: 'enrollments.csv', sourcedId: 'enr-9', column: '*', input: 'row', output: '' },
      { file: 'enrollments.csv', sourcedId: 'enr-10', column: '*', input: 'row', output: '' },
    ]);
  });

  test('one school of the district comes back row by row, with the district org and the shared teacher', async () => {
    const differences = await roundTrip(join(FIXTURES, 'district'), false, { school: 's-north' });
    // The other school's rows were not imported, so they are not given back; the rest is.
    const south = {
      'orgs.csv': ['s-south'],
      'courses.csv': ['s-hr5', 's-mus5'],
      'classes.csv': ['s-5g', 's-mus5g'],
      'users.csv': ['p-201', 't-s5'],
      'enrollments.csv': ['en-s1', 'en-s2', 'en-s3', 'en-s4'],
      'lineItems.csv': ['li-s1'],
      'results.csv': ['rs-s1'],
    };
    expect(differences).toEqual(
      expect.arrayContaining(
        Object.entries(south).flatMap(([file, ids]) =>
          ids.map((sourcedId) => ({ file, sourcedId, column: '*', input: 'row', output: '' })),
        ),
      ),
    );
    // The teacher of both schools comes back as a teacher of the one imported.
    expect(differences.filter((difference) => difference.column !== '*')).toEqual([
      { file: 'users.csv', sourcedId: 't-mus', column: 'orgSourcedIds', input: 's-north,s-south', output: 's-north' },
    ]);
    expect(differences).toHaveLength(Object.values(south).flat().length + 1);
  });

  test('the 1.2 bundle comes back row by row as 1.2, roles, text scores and results without marks too', async () => {
    const input = join(FIXTURES, 'oneroster-1-2');
    expect(await roundTrip(input, false, { version: '1.2' })).toEqual([]);
    const back = bundleRows(await exported(lastImported, '1.2'));
    expect(back.get('results.csv')?.get('res-3')?.textScore).toBe('Merit');
    expect(back.get('results.csv')?.get('res-1')?.scoreDate).toBe('2026-09-27');
  });

  test('the 1.2 bundle exported as 1.1 imports back as the same school', async () => {
    const store = await fresh();
    expect(problemsOf(await importBundle(store, join(FIXTURES, 'oneroster-1-2')))).toEqual([]);
    const again = await fresh();
    expect(problemsOf(await importBundle(again, await exported(store)))).toEqual([]);
    expect(await schoolRows(again)).toEqual(await schoolRows(store));
  });

  test.each(Object.keys(QUIRKS))('the %s quirk bundle comes back row by row, on content', async (name) => {
    expect(await roundTrip(join(FIXTURES, 'quirks', name))).toEqual(QUIRKS[name]);
  });

  test('the generated small school comes back row by row, with fields the store does not hold', async () => {
    const rows = smallSchool();
    rows.users[0] = { ...rows.users[0], email: 'first@school.example', middleName: 'Noor', 'metadata.house': 'Blue' };
    rows.orgs.push({ ...rows.orgs[0], sourcedId: 'district-1', name: 'District', type: 'district', identifier: 'D1' });
    rows.orgs[0] = { ...rows.orgs[0], parentSourcedId: 'district-1' };
    const input = writeBundle(rows);
    expect(await roundTrip(input)).toEqual([]);
    const back = bundleRows(await exported(lastImported));
    expect(back.get('users.csv')?.get(rows.users[0].sourcedId)?.['metadata.house']).toBe('Blue');
    // Each result's own scoreDate, which the store does not hold, is given back (not its lineItem's date).
    expect(rows.results[0].scoreDate).not.toBe(rows.lineItems[0].dueDate);
    expect(back.get('results.csv')?.get(rows.results[0].sourcedId)?.scoreDate).toBe(rows.results[0].scoreDate);
    expect(back.get('orgs.csv')?.get('district-1')?.type).toBe('district');
  });

  test('a delta changes what is given back, and a deleted record leaves it with what names it', async () => {
    const school = smallSchool();
    const store = await fresh();
    expect(problemsOf(await importBundle(store, writeBundle(school)))).toEqual([]);
    const changed = '2026-11-01T10:00:00Z';
    const student = school.users.find((row) => row.role === 'student' && row.sourcedId !== 's3');
    if (!student) throw new Error('the small school has students');
    const delta = {
      manifest: [
        { propertyName: 'manifest.version', value: '1.0' },
        { propertyName: 'oneroster.version', value: '1.1' },
        { propertyName: 'file.users', value: 'delta' },
      ],
      users: [
        { ...student, status: 'active', dateLastModified: changed, email: 'changed@school.example' },
        { ...student, sourcedId: 's3', status: 'tobedeleted', dateLastModified: changed },
      ],
    } as unknown as BundleRows;
    expect(problemsOf(await importBundle(store, writeBundle(delta)))).toEqual([]);
    const back = bundleRows(await exported(store));
    expect(back.get('users.csv')?.get(student.sourcedId)?.email).toBe('changed@school.example');
    expect(back.get('users.csv')?.has('s3')).toBe(false);
    const enrolled = [...(back.get('enrollments.csv')?.values() ?? [])].map((row) => row.userSourcedId);
    expect(enrolled).not.toContain('s3');
    expect(enrolled.length).toBeGreaterThan(0);
  });
});

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../src/store/open-store';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * Bundles as SIS write them: quoted header names, names in another letter case (a warning), a BOM
 * or none, CRLF, LF or CR, columns in any order, columns not read (one note), any ISO 8601
 * dateLastModified, manifests with typos. Each gives the same school as the plain bundle.
 */
describe('real-world spellings of a bundle', () => {
  let plain: Record<string, unknown[]>;
  let store: Store;
  const fresh = () => openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'spellings-')) });

  beforeAll(async () => {
    const baseline = await fresh();
    expect(problemsOf(await importBundle(baseline, writeBundle(smallSchool())))).toEqual([]);
    plain = await schoolRows(baseline);
    await baseline.close();
  });
  beforeEach(async () => {
    store = await fresh();
  });
  afterEach(() => store.close());

  /** Rewrites every file of the bundle's folder with `change`. */
  const rewritten = (rows: BundleRows, change: (text: string, file: string) => string) => {
    const folder = writeBundle(rows);
    for (const file of Object.keys(rows)) {
      const path = join(folder, `${file}.csv`);
      writeFileSync(path, change(readFileSync(path, 'utf8'), file));
    }
    return folder;
  };
  const quoteHeader = (text: string) => {
    const [header, ...rest] = text.split('\n');
    return [
      header
        .split(',')
        .map((name) => `"${name}"`)
        .join(','),
      ...rest,
    ].join('\n');
  };

  test.each([['quoted header names', (text: string) => quoteHeader(text)]])(
    '%s give the same school',
    async (_, change) => {
      const outcome = await importBundle(store, rewritten(smallSchool(), change));
      expect(problemsOf(outcome)).toEqual([]);
      expect(outcome.problems.warningCount).toBe(0);
      expect(await schoolRows(store)).toEqual(plain);
    },
  );

  test.each([
    ['a BOM and CRLF', { bom: true, eol: '\r\n' as const }],
    ['CR line ends', { eol: '\r' as const }],
    ['LF line ends', { eol: '\n' as const }],
  ])('%s give the same school', async (_, options) => {
    const outcome = await importBundle(store, writeBundle(smallSchool(), options));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.problems.warningCount).toBe(0);
    expect(await schoolRows(store)).toEqual(plain);
  });

  test('columns in reverse order give the same school', async () => {
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool(), { reversed: true })))).toEqual([]);
    expect(await schoolRows(store)).toEqual(plain);
  });

  test('a header name in another letter case is read, with a warning at its column', async () => {
    const outcome = await importBundle(
      store,
      rewritten(smallSchool(), (text, file) =>
        file === 'users' ? text.replace('orgSourcedIds', 'orgSourcedIDs') : text,
      ),
    );
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.problems.warnings().warnings).toEqual([
      expect.objectContaining({ file: 'users.csv', line: 1, column: 5, kind: 'header-case' }),
    ]);
    expect(await schoolRows(store)).toEqual(plain);
  });

  test('columns no row is read for are listed once per file, as a note', async () => {
    const rows = smallSchool();
    for (const row of rows.users) Object.assign(row, { 'metadata.favouriteColour': 'blue', vendorId: 'x' });
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    const notes = outcome.problems.notes().filter((note) => note.file === 'users.csv');
    expect(notes).toHaveLength(1);
    // identifier is read only under --ids from-identifier.
    expect(notes[0].message).toBe('not read: identifier, metadata.favouriteColour, vendorId');
    expect(outcome.problems.warningCount).toBe(0);
  });

  test('any ISO 8601 dateLastModified is read', async () => {
    const rows = smallSchool();
    const stamps = ['2026-11-01', '20261101T101500Z', '2026-11-01T10:15:30.5+03', '2026-11-01 10:15:30+0300'];
    rows.users.forEach((row, index) => {
      row.dateLastModified = stamps[index % stamps.length];
    });
    expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
  });

  test('manifest: unknown property and present-but-absent file warn; a missing bulk file is a problem', async () => {
    const rows = smallSchool();
    rows.manifest.push({ propertyName: 'fiel.demographics', value: 'bulk' });
    const demographics = rows.manifest.find((row) => row.propertyName === 'file.demographics');
    if (demographics) demographics.value = 'absent';
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    const warnings = outcome.problems.warnings().warnings;
    expect(warnings.map((warning) => [warning.file, warning.kind, warning.message])).toEqual([
      ['manifest.csv', 'manifest', 'file.demographics is absent, but the bundle has demographics.csv: not read'],
      ['manifest.csv', 'manifest', '"fiel.demographics" is no property of a OneRoster manifest; read past'],
    ]);
    const folder = writeBundle(smallSchool());
    rmSync(join(folder, 'categories.csv'));
    const missing = await importBundle(store, folder);
    expect(problemsOf(missing)).toEqual([
      expect.objectContaining({
        file: 'manifest.csv',
        rule: 'bad-file',
        message: 'the manifest declares categories.csv, which the bundle lacks',
      }),
    ]);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { importRecords } from '../../src/roster/import-school';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows, TEST_IMPORT_OPTIONS } from '../support/roster-import';
import { openTestStore } from '../support/stores';
import { writeFileSync } from 'node:fs';

/**
 * The same school whatever way its rows come: as records through importRecords (the entry a
 * OneRoster REST sync uses), or as CSV files with any column order, quoting, line ends and BOM
 * (a property test rewriting a valid bundle).
 */
describe('one school, however its rows come', () => {
  let plain: Record<string, unknown[]>;
  const fresh = () => openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'records-')) });

  beforeAll(async () => {
    const store = await fresh();
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
    plain = await schoolRows(store);
    await store.close();
  });

  test('records keyed by column header, through importRecords, give the store the CSV bundle gives', async () => {
    const rows = smallSchool();
    const manifest = new Map(rows.manifest.map((row) => [row.propertyName, row.value]));
    const files = new Map(
      Object.entries(rows)
        .filter(([name]) => name !== 'manifest')
        .map(([name, list]) => [
          name,
          // Every row with the same keys, as the entry asks (a REST sync's records have one field set).
          async function* () {
            const keys = [...new Set(list.flatMap((row) => Object.keys(row)))];
            for (const row of list) yield Object.fromEntries(keys.map((key) => [key, row[key] ?? '']));
          },
        ]),
    );
    const store = await fresh();
    try {
      const outcome = await importRecords(
        store,
        { manifest, files, location: 'https://sis.example/ims/oneroster/v1p1' },
        TEST_IMPORT_OPTIONS,
      );
      expect(problemsOf(outcome)).toEqual([]);
      expect(await schoolRows(store)).toEqual(plain);
    } finally {
      await store.close();
    }
  });

  test('any column order, quoting, line ends and BOM give the same store', async () => {
    const files = Object.entries(smallSchool());
    const spelling = fc.record({
      order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
      quoteAll: fc.boolean(),
      eol: fc.constantFrom('\r\n', '\n', '\r'),
      bom: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(spelling, async ({ order, quoteAll, eol, bom }) => {
        const folder = writeBundle(smallSchool());
        for (const [name, rows] of files) {
          const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
          // A permutation of the columns from the drawn numbers.
          const shuffled = columns
            .map((column, index) => ({ column, key: order[index % order.length] * 100 + index }))
            .sort((a, b) => a.key - b.key)
            .map(({ column }) => column);
          const quote = (value: string) =>
            quoteAll || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
          const lines = [shuffled, ...rows.map((row) => shuffled.map((column) => row[column] ?? ''))];
          const text = lines.map((line) => line.map(quote).join(',')).join(eol) + eol;
          writeFileSync(join(folder, `${name}.csv`), (bom ? '\uFEFF' : '') + text);
        }
        const store = await fresh();
        try {
          expect(problemsOf(await importBundle(store, folder))).toEqual([]);
          expect(await schoolRows(store)).toEqual(plain);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 12 },
    );
  });
});

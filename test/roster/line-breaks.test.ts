import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvLine } from '../../src/roster/csv-line';
import { bundleRows, exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';

/**
 * A value holding a line break of any kind (LF or CR alone as well as CRLF), a quote, a comma or a
 * BOM-like character is written quoted where it must be, so that an export imports back as the
 * same school, in 1.1 and 1.2 alike.
 */
const AWKWARD: ReadonlyArray<readonly [file: string, sourcedId: string, column: string, value: string]> = [
  ['categories', 'cat-quiz', 'title', 'Quiz\nshort'],
  ['classes', 'math-7a', 'title', 'Math\r7A'],
  ['orgs', 'sch-1', 'metadata.address', 'King Fahd Road\r\nRiyadh'],
  ['courses', 'c-sci', 'title', 'Science "lab", and field'],
  ['users', 's2', 'familyName', '\uFEFFAli'],
  ['classNotes', 'cn1', 'text', 'first\rsecond\nthird\r\nfourth'],
  ['absenceTypes', 'at-sick', 'nameEn', 'Sick\nleave'],
];

function awkwardSchool(): BundleRows {
  let rows = smallSchool();
  for (const [file, sourcedId, column, value] of AWKWARD) rows = withValue(rows, file, sourcedId, column, value);
  return rows;
}

describe('one quoting rule for every CSV file written', () => {
  test('a field with a quote, a comma, a CR or an LF is quoted; others are written as they are', () => {
    expect(csvLine(['a\nb', 'c\rd', 'e\r\nf', 'g,h', 'i"j', '\uFEFFk', 'plain'], '\r\n')).toBe(
      '"a\nb","c\rd","e\r\nf","g,h","i""j",\uFEFFk,plain\r\n',
    );
    expect(csvLine(['x', ''], '\n')).toBe('x,\n');
  });
});

describeEachEngine('values with line breaks, quotes and commas through export and import', (engine) => {
  const { fresh, exported } = exportingStores(engine);

  for (const version of ['1.1', '1.2'] as const) {
    test(`an export (OneRoster ${version}) gives every value back and imports back as the same school`, async () => {
      const first = await fresh();
      const outcome = await importBundle(first, writeBundle(awkwardSchool()));
      expect(problemsOf(outcome)).toEqual([]);
      const path = await exported(first, version);
      const files = bundleRows(path);
      for (const [file, sourcedId, column, value] of AWKWARD) {
        expect({ file, sourcedId, column, value: files.get(`${file}.csv`)?.get(sourcedId)?.[column] }).toEqual({
          file,
          sourcedId,
          column,
          value,
        });
      }
      // The record's lines end in CRLF, and a bare LF inside a value is inside quotes.
      expect(readFileSync(join(path, 'categories.csv'), 'utf8')).toContain('"Quiz\nshort"');
      const second = await fresh();
      const back = await importBundle(second, path);
      expect(problemsOf(back)).toEqual([]);
      expect(back.written).toBe(true);
      expect(await schoolRows(second)).toEqual(await schoolRows(first));
    });
  }
});

import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleValues } from '../../src/roster/collections/score-scales';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * The OneRoster 1.2 gradebook's rules, each broken once in a copy of the 1.2 fixture bundle: what
 * is wrong is refused at its file, line and column; what is only unmapped is a warning.
 */
const FIXTURE = join(__dirname, 'fixtures', 'oneroster-1-2');

/** The fixture with `file`'s text changed by `edit`, in a folder of its own. */
function changed(file: string, edit: (text: string) => string): string {
  const folder = mkdtempSync(join(tmpdir(), 'gradebook-12-'));
  cpSync(FIXTURE, folder, { recursive: true });
  writeFileSync(join(folder, file), edit(readFileSync(join(folder, file), 'utf8')));
  return folder;
}

async function problemsIn(folder: string) {
  const store = await openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gradebook-12-store-')) });
  try {
    const outcome = await importBundle(store, folder);
    return problemsOf(outcome).map(({ file, line, column, rule }) => `${file}:${line}:${column} ${rule}`);
  } finally {
    await store.close();
  }
}

test('a scale lists {text:value} pairs; an entry whose value is no number maps nothing', () => {
  expect(scaleValues('{Distinction:95},{Merit:80}')).toEqual(
    new Map([
      ['Distinction', 95],
      ['Merit', 80],
    ]),
  );
  expect(scaleValues('{A:4.0}, {Incomplete:I}')).toEqual(new Map([['A', 4]]));
  expect(scaleValues('A:4,B:3')).toBeUndefined();
  expect(scaleValues('')).toBeUndefined();
});

test('a scoreScaleValue that is no list of pairs is a problem at its field', async () => {
  const folder = changed('scoreScales.csv', (text) => text.replace('"{Distinction:95},', '"Distinction=95,'));
  expect(await problemsIn(folder)).toEqual(expect.arrayContaining(['scoreScales.csv:2:9 unknown-value']));
});

test('a lineItem naming no scoreScale is a problem at scoreScaleSourcedId', async () => {
  const folder = changed('lineItems.csv', (text) => text.replace(',ss-merit,', ',ss-gone,'));
  expect(await problemsIn(folder)).toEqual(expect.arrayContaining(['lineItems.csv:3:12 unknown-reference']));
});

test("a result's own scoreScaleSourcedId maps its text score; one naming no scale is a problem", async () => {
  const unmapped = changed('results.csv', (text) =>
    text.replace('k-art6a,,fully graded,,Excellent', 'k-art6a,ss-none,fully graded,,Excellent'),
  );
  expect(await problemsIn(unmapped)).toEqual(['results.csv:5:7 unknown-reference']);
});

test('a lineItem with neither grading period nor academic session is a problem', async () => {
  const folder = changed('lineItems.csv', (text) => text.replace(',cat-proj,,t1-27,', ',cat-proj,,,'));
  expect(await problemsIn(folder)).toEqual(expect.arrayContaining(['lineItems.csv:3:10 missing-value']));
});

test('a graded result with neither score nor textScore is a problem; a weight must be a number', async () => {
  const results = changed('results.csv', (text) => text.replace(',fully graded,42,', ',fully graded,,'));
  expect(await problemsIn(results)).toEqual(['results.csv:2:9 missing-value']);
  const categories = changed('categories.csv', (text) => text.replace(',0.4', ',forty'));
  expect(await problemsIn(categories)).toEqual([
    'categories.csv:2:5 bad-number',
    'lineItems.csv:2:9 depends-on-invalid',
    'results.csv:2:4 depends-on-invalid',
    'results.csv:3:4 depends-on-invalid',
  ]);
});

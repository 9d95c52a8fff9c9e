import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { exportSchool, type OneRosterVersion } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { Store } from '../../src/store/open-store';
import type { EngineUnderTest } from './engines';
import { openTestStore } from './stores';

/**
 * A field of an imported bundle that its export does not give back as it was: the file, the
 * row's sourcedId, the column, and both values ('' for none; a whole row missing is column '*').
 */
export interface FieldDifference {
  readonly file: string;
  readonly sourcedId: string;
  readonly column: string;
  readonly input: string;
  readonly output: string;
}

type Rows = Map<string, Record<string, string>>;

/**
 * A folder bundle's OneRoster files, each as rows by sourcedId (header names as written, unquoted,
 * BOM dropped, any line ends).
 */
export function bundleRows(folder: string): Map<string, Rows> {
  const files = new Map<string, Rows>();
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.csv') || name === 'manifest.csv') continue;
    const records = parse(readFileSync(join(folder, name)), {
      columns: true,
      bom: true,
      skip_empty_lines: true,
    }) as Array<Record<string, string>>;
    // Keyed by the sourcedId column in whatever letter case the header spells it (`SourcedId`).
    const sourcedIdOf = (record: Record<string, string>) =>
      Object.entries(record).find(([column]) => column.toLowerCase() === 'sourcedid')?.[1] ?? '';
    files.set(name, new Map(records.map((record) => [sourcedIdOf(record), record])));
  }
  return files;
}

/**
 * Compares an input bundle with its export row by row, by sourcedId: every non-empty field of the
 * input must come back with the same value (header names compared in any letter case); rows and
 * columns the export adds, and row and column order, are not differences.
 */
export function givenBackDifferences(input: Map<string, Rows>, output: Map<string, Rows>): FieldDifference[] {
  const differences: FieldDifference[] = [];
  for (const [file, rows] of input) {
    const exported = output.get(file);
    for (const [sourcedId, row] of rows) {
      const back = exported?.get(sourcedId);
      if (!back) {
        differences.push({ file, sourcedId, column: '*', input: 'row', output: '' });
        continue;
      }
      const lower = new Map(Object.entries(back).map(([column, value]) => [column.toLowerCase(), value]));
      for (const [column, value] of Object.entries(row)) {
        const returned = lower.get(column.toLowerCase()) ?? '';
        if (value !== '' && returned !== value) {
          differences.push({ file, sourcedId, column, input: value, output: returned });
        }
      }
    }
  }
  return differences;
}

/**
 * Fresh stores of one engine for a describe block, closed after it, and an export of a store into
 * a new folder (OneRoster 1.1 unless asked).
 */
export function exportingStores(engine: EngineUnderTest): {
  fresh: () => Promise<Store>;
  exported: (store: Store, version?: OneRosterVersion) => Promise<string>;
} {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });
  return {
    fresh: async () => {
      const store = await openTestStore(engine.freshStoreSettings());
      stores.push(store);
      return store;
    },
    exported: async (store, version) => {
      const path = join(mkdtempSync(join(tmpdir(), 'roster-export-')), 'school');
      await exportSchool(store, path, SILENT_PROGRESS, undefined, version);
      return path;
    },
  };
}

import type { Bundle } from './bundle-source';
import { CsvSyntaxError, openCsv } from './csv-file';
import type { Problems } from './problems';
import type { ImportMode } from './roster-book';

/**
 * manifest.csv: OneRoster's list of the bundle's files, each `file.NAME` with `bulk`, `delta` or
 * `absent`. Only the OneRoster files it declares are read; the service's own files are read when
 * present. The import's mode, unless given, is delta when any file is declared delta.
 */
export const ONEROSTER_FILES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'enrollments',
  'demographics',
  'categories',
  'lineItems',
  'results',
] as const;

export interface Manifest {
  readonly declared: ReadonlySet<string>;
  readonly mode: ImportMode;
  /** Its data rows, for the import's count of rows read. */
  readonly rows: number;
}

export async function readManifest(bundle: Bundle, problems: Problems): Promise<Manifest | undefined> {
  const name = bundle.find('manifest.csv');
  const fail = (line: number, column: number, rule: 'bad-file' | 'unknown-value', message: string) =>
    problems.add({ file: 'manifest.csv', line, column, rule, message });
  if (!name) {
    fail(1, 1, 'bad-file', 'the bundle has no manifest.csv');
    return undefined;
  }
  const declared = new Set<string>();
  let delta = false;
  let rows = 0;
  try {
    const file = await openCsv(bundle, name);
    const property = file.header.get('propertyname');
    const value = file.header.get('value');
    if (property === undefined || value === undefined) {
      fail(1, 1, 'bad-file', 'manifest.csv needs the columns propertyName and value');
      return undefined;
    }
    for await (const row of file.rows) {
      rows += 1;
      const key = (row.values[property] ?? '').trim();
      const mode = (row.values[value] ?? '').trim().toLowerCase();
      if (!key.startsWith('file.')) continue;
      const fileName = ONEROSTER_FILES.find((candidate) => `file.${candidate}`.toLowerCase() === key.toLowerCase());
      if (!fileName) continue;
      if (!['bulk', 'delta', 'absent'].includes(mode)) {
        fail(row.line, value + 1, 'unknown-value', `${key} is "${mode}", not bulk, delta or absent`);
        continue;
      }
      if (mode === 'absent') continue;
      declared.add(fileName);
      delta ||= mode === 'delta';
      if (!bundle.find(`${fileName}.csv`)) {
        fail(row.line, property + 1, 'bad-file', `the manifest declares ${fileName}.csv, which the bundle lacks`);
      }
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    fail(error.line, error.column, 'bad-file', error.message);
    return undefined;
  }
  return { declared, mode: delta ? 'delta' : 'bulk', rows };
}

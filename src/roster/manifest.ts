import type { Bundle } from './bundle-source';
import { CsvSyntaxError, openCsv } from './csv-file';
import type { Problems } from './problems';
import type { ImportMode } from './roster-book';
import { ONEROSTER_FILES, V12_FILES } from './collections/registry';

/**
 * manifest.csv: OneRoster's list of the bundle's files, each `file.NAME` with `bulk`, `delta` or
 * `absent`. Only the OneRoster files it declares are read; the service's own files are read when
 * present. The import's mode, unless given, is delta when any file is declared delta or the
 * manifest's `processingMode` (as some SIS write it for the bundle as a whole) says delta.
 */
/** The files the import reads, of each version (one list, collections/registry.ts). */
export { ONEROSTER_FILES, V12_FILES } from './collections/registry';

/** The manifest's properties in the OneRoster 1.1 and 1.2 CSV bindings; another is likely a typo. */
const KNOWN_FILES = [
  ...ONEROSTER_FILES,
  ...V12_FILES,
  'classResources',
  'courseResources',
  'resources',
  'userProfiles',
  'userResources',
  'lineItemLearningObjectiveIds',
  'lineItemScoreScales',
  'resultLearningObjectiveIds',
  'resultScoreScales',
];
const KNOWN_PROPERTIES = [
  'manifest.version',
  'oneroster.version',
  'source.systemName',
  'source.systemCode',
  'processingMode',
];

export interface Manifest {
  /** `oneroster.version`: 1.1 unless the manifest says 1.2. */
  readonly version: '1.1' | '1.2';
  /** The OneRoster files declared bulk or delta, with the manifest line of each. */
  readonly declared: ReadonlyMap<string, number>;
  /** The OneRoster files declared absent (or left empty), with the manifest line of each. */
  readonly absent: ReadonlyMap<string, number>;
  readonly mode: ImportMode;
  /** The line of `processingMode`, when the manifest has one. */
  readonly processingModeLine?: number;
}

function isKnownProperty(key: string): boolean {
  return key.startsWith('file.')
    ? KNOWN_FILES.some((candidate) => `file.${candidate}`.toLowerCase() === key.toLowerCase())
    : KNOWN_PROPERTIES.some((candidate) => candidate.toLowerCase() === key.toLowerCase());
}

export async function readManifest(bundle: Bundle, problems: Problems): Promise<Manifest | undefined> {
  const name = bundle.find('manifest.csv');
  const fail = (line: number, column: number, rule: 'bad-file' | 'unknown-value', message: string) =>
    problems.add({ file: 'manifest.csv', line, column, rule, message });
  if (!name) {
    fail(1, 1, 'bad-file', 'the bundle has no manifest.csv');
    return undefined;
  }
  const declared = new Map<string, number>();
  const absent = new Map<string, number>();
  let delta = false;
  let processingModeLine: number | undefined;
  let version: Manifest['version'] = '1.1';
  try {
    const file = await openCsv(bundle, name);
    const property = file.header.get('propertyname');
    const value = file.header.get('value');
    if (property === undefined || value === undefined) {
      fail(1, 1, 'bad-file', 'manifest.csv needs the columns propertyName and value');
      return undefined;
    }
    for await (const row of file.rows) {
      const key = (row.values[property] ?? '').trim();
      const mode = (row.values[value] ?? '').trim().toLowerCase();
      if (!isKnownProperty(key)) {
        const message = `"${key}" is no property of a OneRoster manifest; read past`;
        problems.warn({ file: 'manifest.csv', line: row.line, column: property + 1, kind: 'manifest', message });
        continue;
      }
      if (key.toLowerCase() === 'oneroster.version' && mode.startsWith('1.2')) version = '1.2';
      if (key.toLowerCase() === 'processingmode') {
        processingModeLine = row.line;
        if (mode === 'bulk' || mode === 'delta') delta ||= mode === 'delta';
        else fail(row.line, value + 1, 'unknown-value', `${key} is "${mode}", not bulk or delta`);
      }
      if (!key.startsWith('file.')) continue;
      const fileName = [...ONEROSTER_FILES, ...V12_FILES].find(
        (candidate) => `file.${candidate}`.toLowerCase() === key.toLowerCase(),
      );
      if (mode === '') {
        // Vendors leave the files they do not write empty (`file.scoreScales,`): that is what absent says.
        problems.warn({
          file: 'manifest.csv',
          line: row.line,
          column: value + 1,
          kind: 'manifest',
          message: `${key} has no value: read as absent`,
        });
      }
      if (!fileName) continue;
      if (mode !== '' && !['bulk', 'delta', 'absent'].includes(mode)) {
        fail(row.line, value + 1, 'unknown-value', `${key} is "${mode}", not bulk, delta or absent`);
        continue;
      }
      if (mode === 'absent' || mode === '') {
        absent.set(fileName, row.line);
        if (bundle.find(`${fileName}.csv`)) {
          problems.warn({
            file: 'manifest.csv',
            line: row.line,
            column: value + 1,
            kind: 'manifest',
            message: `${key} is ${mode || 'absent'}, but the bundle has ${fileName}.csv: not read`,
          });
        }
        continue;
      }
      declared.set(fileName, row.line);
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
  return { declared, absent, mode: delta ? 'delta' : 'bulk', version, processingModeLine };
}

/** Why --skip-invalid cannot leave a bulk import of no OneRoster file out: the whole bundle is the problem. */
const NOTHING_TO_REPLACE_WITH = 'a bulk import of no OneRoster file would replace the school with none of its records';

/**
 * A bulk import empties the school before it writes the bundle: of a manifest that declares no
 * OneRoster file bulk or delta (every one absent, as a delta of the service's own files is
 * written), it would leave a school without students, classes or marks, and lose what the store
 * keeps to give them back. Such an import is refused at the manifest line that makes it so.
 */
export function refuseBulkOfNothing(manifest: Manifest, problems: Problems): void {
  if (manifest.declared.size > 0) return;
  const firstAbsent = Math.min(...manifest.absent.values());
  const line = Number.isFinite(firstAbsent) ? firstAbsent : (manifest.processingModeLine ?? 1);
  const said = Number.isFinite(firstAbsent) ? 'declares every OneRoster file absent' : 'declares no OneRoster file';
  problems.add(
    {
      file: 'manifest.csv',
      line,
      column: 1,
      rule: 'bulk-of-nothing',
      message:
        `the manifest ${said}: a bulk import would replace the school with none of its records; ` +
        'a bundle of changes says delta (processingMode,delta or file.NAME,delta) or is imported with --mode delta',
    },
    NOTHING_TO_REPLACE_WITH,
  );
}

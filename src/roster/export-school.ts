import { requiredColumnsOf } from './oneroster-columns';
import type { Store } from '../store/open-store';
import { counted } from '../lib/counted';
import { openImportConnection } from '../store/roster/import-connection';
import { storedSchool } from '../store/roster/school-reader';
import { type BundleWriter, openBundleWriter } from './bundle-writer';
import { cellsOf, type ExportPart, type ExportSource } from './collections/collection';
import { ONEROSTER_COLLECTIONS, OWN_FILE_COLLECTIONS } from './collections/registry';
import { type GivingBackWriter, givingBack } from './giving-back';
import { ONEROSTER_FILES, V12_FILES } from './manifest';
import { keptToGiveBack } from './given-back-rows';
import { oneRoster12Writer } from './oneroster-12-writer';
import type { Progress } from './progress';
import { emit } from './school-snapshot';
import { collectionHeader, collectionRows, openSchoolRows } from './school-rows';
import type { SpreadsheetCells } from './spreadsheet-cells';

/** The binding an export writes: 1.1 unless asked (`export --oneroster 1.2`). */
export type OneRosterVersion = '1.1' | '1.2';

/**
 * Writes the store as a OneRoster 1.1 bundle (or 1.2: oneroster-12-writer.ts) plus the service's
 * own files, in the shapes the import reads, so that importing it gives the same school: every
 * record under its sourcedId and its id (metadata.contractId), names in both languages
 * (metadata.nameAr/nameEn), the homeroom of each scheduled class, and each guardian's relation.
 * What an import brought and the store does not model is given back (giving-back.ts).
 */
export interface ExportSummary {
  /** The school exported, by its English name and the sourcedId an import gave it. */
  readonly school: { name: string; sourcedId: string | null } | undefined;
  readonly files: Readonly<Record<string, number>>;
}

export async function exportSchool(
  store: Store,
  path: string,
  progress: Progress,
  cells?: SpreadsheetCells,
  version: OneRosterVersion = '1.1',
): Promise<ExportSummary> {
  const connection = await openImportConnection(store.connection);
  const bundle = await openBundleWriter(path, cells);
  let writer: GivingBackWriter = givingBack(bundle, new Map(), new Set());
  let v12: ReturnType<typeof oneRoster12Writer> | undefined;
  const counts: Record<string, number> = {};
  try {
    const source = await openSchoolRows(connection);
    const { school } = source;
    // The imported rows' fields the store does not model are given back (see giving-back.ts).
    const kept = await keptToGiveBack(connection, version);
    if (version === '1.2') v12 = oneRoster12Writer(bundle, !kept.has('roles.csv'));
    writer = givingBack(v12 ?? bundle, kept, school.storedSourcedIds(), (file) => requiredColumnsOf(file, version));
    for (const collection of EXPORTED) await exportCollection(writer, counts, collection, source);
    const files = version === '1.2' ? [...ONEROSTER_FILES, ...V12_FILES] : ONEROSTER_FILES;
    await writer.finish(
      counts,
      files.map((file) => `${file}.csv`),
    );
    if (v12 && v12.rolesWritten() > 0) counts['roles.csv'] = v12.rolesWritten();
    // Last, as it says which files have rows: the others are absent.
    await emit(writer, counts, 'manifest.csv', ['propertyName', 'value'], manifestRows(counts, version), (row) => row);
    // A file without rows is not written (the manifest declares it absent), so it is not counted.
    const written = Object.values(counts).filter((count) => count > 0).length;
    progress.note(`Wrote ${counted(written, 'file')} to ${path}.`);
    return { files: counts, school: await storedSchool(connection) };
  } finally {
    await writer.close();
    await connection.release();
  }
}

function* manifestRows(counts: Readonly<Record<string, number>>, version: OneRosterVersion): Iterable<string[]> {
  yield ['manifest.version', '1.0'];
  yield ['oneroster.version', version];
  for (const file of version === '1.2' ? [...ONEROSTER_FILES, ...V12_FILES] : ONEROSTER_FILES)
    yield [`file.${file}`, (counts[`${file}.csv`] ?? 0) > 0 ? 'bulk' : 'absent'];
  yield ['source.systemName', 'school-information-service'];
  yield ['source.systemCode', 'school-service'];
}

/** The files an export writes from the store: OneRoster's, then the service's own. */
const EXPORTED: ReadonlyArray<{ readonly name: string; readonly export: ExportPart<string> }> = [
  ...ONEROSTER_COLLECTIONS,
  ...OWN_FILE_COLLECTIONS,
];

/** Writes one collection's rows in its header's order (a file without rows is not written). */
async function exportCollection(
  writer: BundleWriter,
  counts: Record<string, number>,
  collection: { readonly name: string; readonly export: ExportPart<string> },
  source: ExportSource,
): Promise<void> {
  const part = collection.export;
  const header = await collectionHeader(source, part);
  const rows = collectionRows(source, part);
  await emit(writer, counts, `${collection.name}.csv`, header, rows, (record) => cellsOf(header, record));
}

import { requiredIn } from './collections/collection';
import { ONEROSTER_12_COLLECTIONS, ONEROSTER_COLLECTIONS } from './collections/registry';

/**
 * The columns of OneRoster CSV files, in the binding's order, for the sides that write them a file
 * at a time: the export (the columns a file given back must have), the 1.2 export, the REST
 * sync's spooled bundle and the benchmark's generated bundle. A file's columns are named once, in
 * its collection's module (collections/), which reads them too; this file gathers them.
 */

export { ROLES_COLUMNS } from './collections/roles';
export { SCORE_SCALES_COLUMNS } from './collections/score-scales';

/**
 * The columns of each file of the OneRoster 1.1 CSV binding the import reads, in the binding's
 * order, as each collection's module (collections/) names them: the export writes them (with the
 * service's own metadata.* columns after them) and the REST sync writes each record it pulls as a
 * row of them, so that import, export and sync share one list.
 */
export const ONEROSTER_COLUMNS = Object.fromEntries(
  ONEROSTER_COLLECTIONS.map((collection) => [collection.name, collection.columns]),
) as unknown as ColumnsByFile;

/** Each OneRoster 1.1 file's columns, by its name (`users`). */
type ColumnsByFile = {
  readonly [Collection in (typeof ONEROSTER_COLLECTIONS)[number] as Collection['name']]: Collection['columns'];
};

export type OneRosterFile = keyof typeof ONEROSTER_COLUMNS;

export type ColumnOf<File extends OneRosterFile> = (typeof ONEROSTER_COLUMNS)[File][number];

/**
 * Some of a file's columns, in the order given, checked against the file's list (the service's own
 * `metadata.*` columns allowed): for a writer of a bundle that has only some of them.
 */
export function columnsOf<File extends OneRosterFile>(
  _file: File,
  columns: readonly (ColumnOf<File> | `metadata.${string}`)[],
): readonly string[] {
  return columns;
}

/** The columns a version requires of a file, by its name (`users.csv`); none for a file of the service's own. */
export function requiredColumnsOf(fileName: string, version: '1.1' | '1.2'): readonly string[] {
  const base = fileName.replace(/\.csv$/, '');
  const collection = [...ONEROSTER_COLLECTIONS, ...ONEROSTER_12_COLLECTIONS].find((each) => each.name === base);
  return collection ? requiredIn<string>(collection, version) : [];
}

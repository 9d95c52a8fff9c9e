import type { ImportConnection } from '../store/roster/import-connection';
import { keptColumns } from '../store/roster/kept-fields';
import { readGuardianLinks } from '../store/roster/school-reader';
import type { SchoolTableName } from '../store/roster/school-tables';
import type { Cell, ExportPart, ExportSource } from './collections/collection';
import { NAMED_TABLES } from './collections/registry';
import { SchoolSnapshot } from './school-snapshot';

/**
 * The school's collections as rows of their files, for the export and any other reader of the
 * store's records (a OneRoster REST provider): open the source once, then page through a
 * collection's rows (`collectionRows`), each a record keyed by the file's columns. The tables other
 * rows name are read whole (small beside marks, which are read a page at a time): those the
 * collection modules declare (`NAMED_TABLES`).
 */

/**
 * Reads what the row sources need of the store, on the connection given (which stays the caller's):
 * the tables every module declares, or only `tables` for a reader of some files.
 */
export async function openSchoolRows(
  connection: ImportConnection,
  tables: readonly SchoolTableName[] = NAMED_TABLES,
): Promise<ExportSource> {
  const school = new SchoolSnapshot(connection);
  for (const table of tables) await school.load(table);
  // The links name guardians: a reading without them (one file's, not users.csv) has no use for them.
  const links = tables.includes('guardians') ? await readGuardianLinks(connection) : [];
  // Each file's kept columns are read once: for results.csv, a pass over every mark's kept fields.
  const keptNames = new Map<string, Promise<readonly string[]>>();
  return {
    school,
    links,
    keptColumns(file) {
      const read = keptNames.get(file) ?? keptColumns(connection, file);
      keptNames.set(file, read);
      return read;
    },
  };
}

/** A collection's header (its columns, the service's metadata.* columns, then the kept fields' columns). */
export async function collectionHeader(source: ExportSource, part: ExportPart<string>): Promise<string[]> {
  return [...part.header, ...((await part.keptHeader?.(source)) ?? [])];
}

/** A collection's rows, in id order: leave the loop to stop reading. */
export function collectionRows(
  source: ExportSource,
  part: ExportPart<string>,
): Iterable<Readonly<Record<string, Cell>>> | AsyncIterable<Readonly<Record<string, Cell>>> {
  return part.rows(source);
}

import type { SchoolTableName } from '../store/roster/school-tables';
import type { OwnFileCollection } from './collections/own-file';
import { OWN_FILE_COLLECTIONS } from './collections/registry';
import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';

/**
 * Reads the service's own files (collections/own-file.ts says what they are; each file's module
 * its columns and how a row becomes a record), in the order of the registry: what a row names is
 * read before it.
 */
type AnyOwnFile = OwnFileCollection<string, SchoolTableName, string>;

async function readOwnFile(
  context: ImportContext,
  collection: AnyOwnFile,
  recordOf: (studentId: number, classId: number) => number | undefined,
): Promise<void> {
  const read = collection.read;
  if (!read) return;
  const { table } = collection;
  await forEachRow<string>(context, `${collection.name}.csv`, collection.required, (reader) => {
    const start = rowStart(context, reader, table, 'contractId');
    if (!start) return;
    const resolve = (column: string, tables: SchoolTableName[], what: string) => {
      const sourcedId = reader.required(column);
      return sourcedId ? context.book.resolve(reader, column, tables, sourcedId, what) : undefined;
    };
    const row = read(reader, resolve, { context, recordOf });
    takeRow(context, reader, table, start, row, undefined, 'contractId');
  });
  assignIds(context, table);
}

export async function readOwnFiles(
  context: ImportContext,
  recordOf: (studentId: number, classId: number) => number | undefined,
): Promise<void> {
  for (const collection of OWN_FILE_COLLECTIONS as readonly AnyOwnFile[])
    await readOwnFile(context, collection, recordOf);
}

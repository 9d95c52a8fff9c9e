import type { SchoolTableName } from '../store/roster/school-tables';
import type { BundleReading } from './bundle-reading';
import type { OwnFileCollection } from './collections/own-file';
import { assignIds, type BundleFile, forEachRow, rowStart, takeRow } from './read-file';

/**
 * Reads one of the service's own files (collections/own-file.ts says what they are; each file's
 * module its columns and how a row becomes a record): each row's common columns, then its record
 * from the module's `read`, its references resolved in the book.
 */
export async function readOwnFile(
  { context, recordOf }: BundleReading,
  collection: OwnFileCollection<string, SchoolTableName, string>,
  file: BundleFile,
): Promise<void> {
  const read = collection.read;
  if (!read) return;
  const { table } = collection;
  await forEachRow<string>(context, file, collection.required, (reader) => {
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

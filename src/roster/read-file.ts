import type { Database } from '../store/schema';
import type { SchoolTableName } from '../store/roster/school-tables';
import { type CsvFile, type CsvRow, CsvSyntaxError, openCsv } from './csv-file';
import { counted } from '../lib/counted';
import { clip, FieldReader } from './fields';
import { INACTIVE, keptAsOneRoster11, readAsOneRoster11 } from './oneroster-10-names';
import { type ImportContext, readerOf } from './import-context';
import { isNeverKept } from './kept-fields';
import type { Entry } from './roster-book';

/**
 * A file of the bundle as the import reads it, made of its collection by the registry
 * (`bundleFile`): its name without .csv, whether it is one of OneRoster's (which the manifest
 * must declare), whether its accepted rows are kept whole for export to give back, and the
 * store's tables whose records its rows are (when the file cannot be read, rows naming those
 * records are left out without a problem each, and counted in one line).
 */
export interface BundleFile {
  readonly name: string;
  readonly oneRoster: boolean;
  readonly keepsRows: boolean;
  readonly fills: readonly SchoolTableName[];
}

/**
 * Reads one file of the bundle row by row: checks its header has the required columns, hands each
 * row to `handle` through a field reader, and reports a file the CSV parser cannot read as one
 * problem at the line it stopped on. Returns false when the file is absent.
 */
export async function forEachRow<Name extends string = string>(
  context: ImportContext,
  file: BundleFile,
  requiredColumns: readonly Name[],
  handle: (reader: FieldReader<Name>) => void,
  batches?: { every: number; flush: () => Promise<void> },
): Promise<boolean> {
  const fileName = `${file.name}.csv`;
  if (file.oneRoster && !context.declared.has(file.name)) {
    noteNotDeclared(context, file);
    return false;
  }
  const found = context.bundle.find(fileName);
  if (!found) {
    // Declared but missing (a problem of the manifest's): rows naming its records are not listed one by one.
    const line = context.declared.get(file.name);
    if (line !== undefined) context.book.breakFile(fileName, `manifest.csv:${line}`, file.fills);
    return false;
  }
  let csv: CsvFile;
  let reader: FieldReader<Name> | undefined;
  let count = 0;
  context.progress.file(found, context.bundle.size(found));
  try {
    csv = readAsOneRoster11(await openCsv(context.bundle, found), fileName, context.problems);
    reader = new FieldReader<Name>(fileName, csv.header, context.problems, csv.names);
    context.readers.set(fileName, reader);
    const rows = csv.rows[Symbol.asyncIterator]();
    let next = await rows.next();
    // A header alone (or nothing) is a file without rows, whatever its header lacks: there is nothing to read.
    if (next.done) {
      warnEmpty(context, file);
      context.progress.fileDone(0);
      return true;
    }
    if (!reader.requireColumns(requiredColumns)) {
      await rows.return?.();
      return true;
    }
    const keep = file.keepsRows ? rowKeeper(context, fileName, csv) : undefined;
    for (; !next.done; next = await rows.next()) {
      const row = next.value;
      if (row.values.length > csv.names.length) warnExtraFields(context, fileName, row, csv.names.length);
      reader.begin(row);
      const leftOutBefore = context.school.leftOut.skipped;
      const unchangedBefore = context.book.unchanged;
      handle(reader);
      // Kept only when the row was taken: not left out (another school's) and, in a delta, not
      // older than the store's copy (whose kept fields stay as they are).
      keep?.(
        row,
        reader.ok && context.school.leftOut.skipped === leftOutBefore && context.book.unchanged === unchangedBefore,
      );
      count += 1;
      context.rowsRead.count += 1;
      if (batches && count % batches.every === 0) await batches.flush();
      if (count % 1000 === 0) context.progress.rows(count, csv.bytesRead());
    }
    if (batches) await batches.flush();
    reader.finish();
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    context.problems.add({
      file: fileName,
      line: error.line,
      column: error.column,
      rule: 'bad-file',
      message: error.message,
    });
    // Problems found later at rows of this file need its reader, even when the header itself was unreadable.
    if (!context.readers.has(fileName))
      context.readers.set(fileName, new FieldReader(fileName, new Map(), context.problems));
    context.book.breakFile(fileName, `${fileName}:${error.line}`, file.fills);
  }
  context.progress.fileDone(count);
  return true;
}

/** A file the manifest leaves out: rows naming its records say so, with the manifest's line. */
function noteNotDeclared(context: ImportContext, file: BundleFile): void {
  const fileName = `${file.name}.csv`;
  const line = context.absent.get(file.name);
  const cause =
    line === undefined
      ? `the manifest does not declare ${fileName}`
      : `the manifest marks ${fileName} absent (manifest.csv:${line})`;
  context.book.fileNotInBundle(file.fills, cause);
}

/** A file without rows: said, as a header that lacks a column then is no reason to refuse it. */
function warnEmpty(context: ImportContext, file: BundleFile): void {
  const fileName = `${file.name}.csv`;
  context.book.fileNotInBundle(file.fills, `${fileName} has no rows`);
  context.problems.warn({
    file: fileName,
    line: 1,
    column: 1,
    kind: 'empty-file',
    message: `${fileName} has no rows (a header alone): read as an empty file`,
  });
}

/** Fields past the header's last column have no name to be read by: said, rather than dropped unseen. */
function warnExtraFields(context: ImportContext, fileName: string, row: CsvRow, columns: number): void {
  const extra = row.values.slice(columns);
  // A few of them, each cut short: a row of garbage makes one line, not a flood.
  const listed = extra.slice(0, 3).map((value) => `"${clip(value)}"`);
  if (extra.length > 3) listed.push('...');
  const shown = extra.some((value) => value.trim() !== '') ? `: ${listed.join(', ')}` : ' (empty)';
  const counts = `the row has ${row.values.length} fields, the header ${columns}`;
  context.problems.warn({
    file: fileName,
    line: row.line,
    column: columns + 1,
    kind: 'extra-fields',
    message: `${counts}: ${counted(extra.length, 'field')} past the header not read${shown}`,
  });
}

/**
 * Keeps each accepted row's fields, and forgets those of a row a delta deletes. A column never
 * kept (a password) is left out, and the first row that holds a value in it is told so.
 */
function rowKeeper(context: ImportContext, fileName: string, file: CsvFile) {
  const at = (name: string) => file.header.get(name.toLowerCase());
  const sourcedIdAt = at('sourcedId');
  const statusAt = at('status');
  const kept = file.names.map((name, index) => [name, index] as const).filter(([name]) => !isNeverKept(name));
  let neverKept = file.names.findIndex(isNeverKept);
  return (row: CsvRow, accepted: boolean) => {
    if (neverKept >= 0 && (row.values[neverKept] ?? '') !== '') {
      const column = file.names[neverKept];
      context.problems.warn({
        file: fileName,
        line: row.line,
        column: neverKept + 1,
        kind: 'not-kept',
        message: `${column} is not read and not kept, in this row or any other: the service stores no password`,
      });
      neverKept = -1;
    }
    const sourcedId = sourcedIdAt === undefined ? '' : (row.values[sourcedIdAt] ?? '').trim();
    if (sourcedId === '') return;
    if (statusAt !== undefined && row.values[statusAt]?.trim() === 'tobedeleted') {
      if (accepted) context.kept.forget(fileName, sourcedId);
      return;
    }
    if (!accepted) return;
    const fields = kept.filter(([, index]) => (row.values[index] ?? '') !== '');
    context.kept.keepUnusedFields(
      fileName,
      sourcedId,
      keptAsOneRoster11(fileName, Object.fromEntries(fields.map(([name, index]) => [name, row.values[index] ?? '']))),
    );
  };
}

export interface RowStart {
  readonly sourcedId: string;
  readonly modifiedAt: string | undefined;
  readonly pinnedId: number | undefined;
}

const MAX_ID = 2 ** 31 - 1;

/**
 * The fields every row has: sourcedId, status and dateLastModified (required in delta mode, as
 * OneRoster has it), and the contract id an export wrote. A row with status=tobedeleted is taken
 * as a deletion of the record in whichever of `tables` holds it, and handled no further (undefined):
 * it needs no other field. `readsInactive`: OneRoster 1.0's status `inactive` is read as active
 * (users.csv, where 1.1 says the same with enabledUser false).
 */
export function rowStart(
  context: ImportContext,
  reader: FieldReader,
  tables: SchoolTableName | readonly SchoolTableName[],
  contractIdColumn: string,
  readsInactive = false,
): RowStart | undefined {
  const sourcedId = reader.required('sourcedId') ?? '';
  const statuses = readsInactive
    ? (['active', 'tobedeleted', INACTIVE] as const)
    : (['active', 'tobedeleted'] as const);
  const status = reader.oneOf('status', statuses, context.mode === 'delta');
  const modifiedAt = reader.timestamp('dateLastModified', context.mode === 'delta');
  const pinnedId = reader.integer(contractIdColumn, false, { min: 1, max: MAX_ID });
  if (status === 'tobedeleted') {
    if (reader.ok) for (const table of [tables].flat()) context.book.delete(table, sourcedId, reader);
    return undefined;
  }
  return { sourcedId, modifiedAt, pinnedId };
}

/**
 * A stored row as an import fills it: each of the table's columns (no other), references as book
 * entries (their ids are known only once the import assigns them). A reader's row literal is
 * checked against its table where `takeRow` takes it: a misspelt or a missing column does not compile.
 */
export type FilledRow<Table extends SchoolTableName> = {
  readonly [Column in Exclude<keyof Database[Table], 'id'>]: unknown;
};

/** Takes a row that passed its checks into the book, or marks its sourcedId invalid so that rows naming it say why. */
export function takeRow<Table extends SchoolTableName>(
  context: ImportContext,
  reader: FieldReader,
  table: Table,
  start: RowStart,
  row: FilledRow<Table>,
  claim?: Entry['claim'],
  contractIdColumn = 'metadata.contractId',
): Entry | undefined {
  if (!reader.ok) {
    context.book.markInvalid(table, start.sourcedId, reader);
    return undefined;
  }
  const pinned =
    start.pinnedId !== undefined ? { id: start.pinnedId, column: contractIdColumn, pinned: true } : undefined;
  return context.book.accept(table, reader, {
    sourcedId: start.sourcedId,
    row,
    modifiedAt: start.modifiedAt,
    claim: pinned ?? claim,
  });
}

/** Gives the ids of a table's new records, reporting clashes at the rows they came from. */
export function assignIds(context: ImportContext, table: SchoolTableName): void {
  context.book.assignIds(table, (entry) => readerOf(context, entry.file));
}

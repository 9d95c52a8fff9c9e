import { readSchoolTable } from '../../store/roster/school-reader';
import { type SchoolTableName, schoolTable } from '../../store/roster/school-tables';
import type { ImportPart } from '../bundle-reading';
import type { FieldReader } from '../fields';
import type { ImportContext } from '../import-context';
import type { FilledRow } from '../read-file';
import type { Entry } from '../roster-book';
import type { SchoolSnapshot } from '../school-snapshot';
import { commonCells, type ExportPart, type StoredRecord, type StoredRowOf } from './collection';

/**
 * The service's own files, for what OneRoster 1.1 has no place for. Each starts with sourcedId,
 * status, dateLastModified and contractId as OneRoster files do, and names other records by their
 * sourcedIds. Their header lines and examples are in docs/import.md.
 */
export const OWN_COMMON_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'contractId'] as const;

type CommonColumn = (typeof OWN_COMMON_COLUMNS)[number];

export type { FilledRow } from '../read-file';

/** Resolves the sourcedId a column names to a record of one of `tables`, reporting one it cannot. */
export type Resolve<Column extends string> = (
  column: Column,
  tables: SchoolTableName[],
  what: string,
) => Entry | undefined;

/** What an own file's reader needs beyond its row: the import, and a student's record in a class. */
export interface OwnFileImport {
  readonly context: ImportContext;
  readonly recordOf: (studentId: number, classId: number) => number | undefined;
}

/**
 * Checks a row of the file and makes the table's row of it (own-files.ts reads the file and takes
 * the rows). A reader states its return type as `FilledRow<table>`: the compiler checks a returned
 * object's columns against the table only where its type is written.
 */
export type OwnFileReader<Table extends SchoolTableName, Column extends string> = (
  reader: FieldReader<Column>,
  resolve: Resolve<Column>,
  within: OwnFileImport,
) => FilledRow<Table>;

export interface OwnFileCollection<Name extends string, Table extends SchoolTableName, Column extends string> {
  readonly name: Name;
  /** The store's table its rows are. */
  readonly table: Table;
  /** Every column, the common ones first: the header export writes. */
  readonly columns: readonly (CommonColumn | Column)[];
  /** The columns a header must have for the import to read the file. */
  readonly required: readonly (CommonColumn | Column)[];
  /** A row's record; own-files.ts reads the file. None for gradeLevels.csv, which has a reader of its own. */
  readonly read?: OwnFileReader<Table, CommonColumn | Column>;
  /** gradeLevels.csv's reader, read before the classes that name its levels (grade-levels.ts). */
  readonly import?: ImportPart;
  readonly export: ExportPart<CommonColumn | Column>;
}

/** sourcedId, status, dateLastModified and contractId of a stored row (spread last: see commonCells). */
export function ownCells(school: SchoolSnapshot, table: SchoolTableName, row: StoredRecord) {
  return { contractId: row.id, ...commonCells(school, table, row) };
}

/** A table's rows read a page at a time (a large one: attendance, notes), typed as the table. */
export function streamedRows<Table extends SchoolTableName>(
  school: SchoolSnapshot,
  table: Table,
): AsyncIterable<StoredRowOf<Table>> {
  return readSchoolTable(school.connection, schoolTable(table)) as AsyncIterable<unknown> as AsyncIterable<
    StoredRowOf<Table>
  >;
}

/** A name in the school's language, and in English (the same when none is given). */
export function named(reader: FieldReader<'name' | 'nameEn'>): { name_ar: string; name_en: string } {
  const name = reader.required('name') ?? '';
  return { name_ar: name, name_en: reader.text('nameEn') || name };
}

/** The booleans own files write. */
export const trueOrFalse = (value: unknown): string => (Number(value) === 1 ? 'true' : 'false');

import type { Selectable } from 'kysely';
import type { Database } from '../../store/schema';
import type { StoredRow } from '../../store/roster/school-reader';
import type { SchoolTableName } from '../../store/roster/school-tables';
import type { ImportPart } from '../bundle-reading';
import type { SchoolSnapshot } from '../school-snapshot';
import type { Json, Row } from './rest-cells';

/**
 * What a collection module is made of. Each file of a bundle (the OneRoster files the import reads
 * and the service's own) is one module in this folder, owning its columns, the columns the import
 * requires, its import reader, how the export reads its rows from the store and, for a OneRoster
 * file the SIS sync pulls, how a REST record becomes a row of it. Rows are typed on both sides: a
 * row read or written for a file names only that file's columns, and a stored row only its
 * table's columns (store/schema.ts), so a misspelt column does not compile.
 */

/** A cell as the export writes it: text, a number, or empty (null and undefined are written empty). */
export type Cell = string | number | null | undefined;

/** A row of a file by its columns: a column the file lacks is refused by the compiler. */
export type CsvRecord<Column extends string> = { readonly [Name in Column]?: Cell };

/** The service's own columns, which an export adds after the binding's. */
export type MetadataColumn = `metadata.${string}`;

/**
 * A stored row of a school table as the export reads it: the table's columns (no others: a
 * misspelt one does not compile), its id, the ledger's sourcedId and, read with marks, its kept fields.
 */
export type StoredRowOf<Table extends SchoolTableName> = Omit<Selectable<Database[Table]>, 'id'> & {
  readonly id: number;
  readonly sourced_id: string | null;
  readonly modified_at: string | null;
  readonly kept?: unknown;
};

/** A guardian's link to a student, which has no id of its own. */
export interface GuardianLink {
  readonly student_id: number;
  readonly guardian_id: number;
  readonly relation: string;
}

/**
 * What an export row source reads from: the school's tables other rows name (loaded whole, with
 * each record's sourcedId), the guardian links, and the kept fields' column names of a file whose
 * kept fields are read with its rows (results.csv).
 */
export interface ExportSource {
  readonly school: SchoolSnapshot;
  readonly links: readonly GuardianLink[];
  readonly keptColumns: (file: string) => Promise<readonly string[]>;
}

/**
 * A collection's rows as the store holds them, each as a row of its file, in id order (a large
 * table, marks, read a page at a time). This is the one reading of the store that export writes
 * and that any other reader of the school's records (a REST provider) pages over: iterate it,
 * take what is asked for (by sourcedId, by offset) and stop early by leaving the loop.
 */
export type RowSource<Column extends string> = (
  source: ExportSource,
) => Iterable<CsvRecord<Column>> | AsyncIterable<CsvRecord<Column>>;

/**
 * The store's tables a row source reads, declared beside it so that the tables a reading loads
 * (registry.ts, `NAMED_TABLES`) are made from the modules and no list is kept by hand. `whole`:
 * read once a reading, all rows (the records its rows are, when few, and every record they name by
 * sourcedId); the source finds them in the snapshot, which refuses a table no module declares.
 * `paged`: read a page at a time as the rows are written (marks, attendance: millions of rows).
 */
export interface TablesRead {
  readonly whole: readonly SchoolTableName[];
  readonly paged?: readonly SchoolTableName[];
}

/** Where the export of a collection is written: its header and its rows. */
export interface ExportPart<Column extends string> {
  readonly reads: TablesRead;
  /** The header the export writes (the binding's columns, then the service's metadata.* ones). */
  readonly header: readonly (Column | MetadataColumn)[];
  readonly rows: RowSource<Column | MetadataColumn>;
  /** Columns read with the rows and added after the header (results.csv's kept fields). */
  readonly keptHeader?: (source: ExportSource) => Promise<readonly string[]>;
}

/** The rows of a school table the snapshot holds, typed as the table. */
export function storedRows<Table extends SchoolTableName>(
  school: SchoolSnapshot,
  table: Table,
): readonly StoredRowOf<Table>[] {
  return school.loaded(table) as readonly StoredRow[] as unknown as readonly StoredRowOf<Table>[];
}

/** The rows of a school table, by id, typed as the table. */
export function storedById<Table extends SchoolTableName>(
  school: SchoolSnapshot,
  table: Table,
): ReadonlyMap<number, StoredRowOf<Table>> {
  return school.byId(table) as unknown as ReadonlyMap<number, StoredRowOf<Table>>;
}

/** What every stored row has: its id and what the ledger holds of it. */
export interface StoredRecord {
  readonly id: number;
  readonly sourced_id: string | null;
  readonly modified_at: string | null;
}

/** The sourcedId of a stored row (its own, or the one export makes for it). */
export function sourcedIdOf(school: SchoolSnapshot, table: SchoolTableName, row: StoredRecord): string {
  return school.sourcedIdOf(table, row as unknown as StoredRow);
}

/**
 * sourcedId, status and dateLastModified of a stored row: the columns every file starts with.
 * Spread last into a row's literal, never first: V8 (Node 20) makes a literal that starts with a
 * spread and gains properties after it a hundred times slower (45 µs against 0.4 µs a row of
 * users), which millions of marks or attendance rows pay.
 */
export function commonCells(
  school: SchoolSnapshot,
  table: SchoolTableName,
  row: StoredRecord,
): { sourcedId: string; status: string; dateLastModified: string } {
  return { sourcedId: sourcedIdOf(school, table, row), status: '', dateLastModified: row.modified_at ?? '' };
}

/** A record's cells in the order of a header (a header column the record lacks is empty). */
export function cellsOf(header: readonly string[], record: Readonly<Record<string, Cell>>): Cell[] {
  const cells: Cell[] = new Array(header.length);
  for (let index = 0; index < header.length; index += 1) cells[index] = record[header[index]];
  return cells;
}

/**
 * A file of the OneRoster 1.1 CSV binding the import reads, the export writes and the SIS sync
 * pulls from a provider's REST binding. Its module holds its import reader too, which takes its
 * required columns from here (`requiredIn`).
 */
export interface OneRosterCollection<Name extends string, Column extends string> {
  readonly name: Name;
  /** The REST service that serves it. */
  readonly service: 'rostering' | 'gradebook';
  /** The binding's columns, in its order. */
  readonly columns: readonly Column[];
  /** The columns a 1.1 header must have for the import to read the file (else a `missing-column` problem). */
  readonly required: readonly Column[];
  /** Of those, the ones a 1.2 file need not have. */
  readonly notRequiredIn12?: readonly Column[];
  readonly import: ImportPart;
  readonly export: ExportPart<Column>;
  /** A REST record as a row of the file (rest-cells.ts). */
  readonly fromRest: (record: Json) => Row;
}

/** The columns a header must have for the import to read the file, in the bundle's OneRoster version. */
export function requiredIn<Column extends string>(
  collection: { readonly required: readonly Column[]; readonly notRequiredIn12?: readonly Column[] },
  version: '1.1' | '1.2',
): readonly Column[] {
  const dropped: readonly string[] = version === '1.2' ? (collection.notRequiredIn12 ?? []) : [];
  return collection.required.filter((column) => !dropped.includes(column));
}

/** The rows a row source of a file yields, its columns checked as each row is written. */
export type RowsOf<Column extends string> = Generator<CsvRecord<Column | MetadataColumn>, void, undefined>;

/** The rows of a row source that reads a large table a page at a time. */
export type AsyncRowsOf<Column extends string> = AsyncGenerator<CsvRecord<Column | MetadataColumn>, void, undefined>;

/** The sourcedId of the school, which classes, users and enrolments name as their org. */
export function schoolSourcedId(school: SchoolSnapshot): string {
  return school.ref('schools', school.loaded('schools')[0]?.id);
}

/** The class section of a class and subject (a scheduled class): what assignments and assessments are in. */
export function sectionsOf(school: SchoolSnapshot): ReadonlyMap<string, StoredRowOf<'class_subjects'>> {
  const sections = new Map<string, StoredRowOf<'class_subjects'>>();
  for (const section of storedRows(school, 'class_subjects'))
    sections.set(`${section.class_id} ${section.subject_id}`, section);
  return sections;
}

/** The sourcedId of the class an assignment or assessment is in: its class section's, else its homeroom's. */
export function sectionRef(
  school: SchoolSnapshot,
  sections: ReadonlyMap<string, StoredRowOf<'class_subjects'>>,
  row: { readonly class_id: number; readonly subject_id: number },
): string {
  const section = sections.get(`${row.class_id} ${row.subject_id}`);
  return section ? sourcedIdOf(school, 'class_subjects', section) : school.ref('classes', row.class_id);
}

/**
 * A file only OneRoster 1.2 has that the import reads (roles.csv, scoreScales.csv): its columns,
 * those the import requires and its import reader. The export writes roles.csv from users.csv's
 * rows (oneroster-12-writer.ts) and gives scoreScales.csv back as it was imported (giving-back.ts).
 */
export interface OneRoster12Collection<Name extends string, Column extends string> {
  readonly name: Name;
  readonly columns: readonly Column[];
  readonly required: readonly Column[];
  readonly import: ImportPart;
}

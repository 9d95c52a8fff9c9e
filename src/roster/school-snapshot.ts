import type { ImportConnection } from '../store/roster/import-connection';
import { readSchoolTable, type StoredRow } from '../store/roster/school-reader';
import { type SchoolTableName, schoolTable } from '../store/roster/school-tables';
import type { BundleWriter } from './bundle-writer';
import { codeForOrdinal } from './grade-levels';
import { generatedSourcedId } from './sourced-ids';

/** Reads a table's rows whole (the tables other rows refer to, small beside marks) with each id's sourcedId. */
export class SchoolSnapshot {
  private readonly sourcedIds = new Map<SchoolTableName, Map<number, string>>();
  readonly rows = new Map<SchoolTableName, StoredRow[]>();

  constructor(readonly connection: ImportConnection) {}

  async load(table: SchoolTableName): Promise<StoredRow[]> {
    const rows: StoredRow[] = [];
    const ids = new Map<number, string>();
    for await (const row of readSchoolTable(this.connection, schoolTable(table))) {
      rows.push(row);
      ids.set(row.id, this.sourcedIdOf(table, row));
    }
    this.rows.set(table, rows);
    this.sourcedIds.set(table, ids);
    return rows;
  }

  /**
   * Holds some rows of a table read elsewhere (a page of them), and the sourcedIds of the other
   * records of it they name (`named`): a row source then yields those rows alone.
   */
  hold(table: SchoolTableName, rows: StoredRow[], named: readonly StoredRow[] = []): void {
    this.rows.set(table, rows);
    this.sourcedIds.set(table, new Map([...named, ...rows].map((row) => [row.id, this.sourcedIdOf(table, row)])));
  }

  sourcedIdOf(table: SchoolTableName, row: StoredRow): string {
    if (row.sourced_id) return row.sourced_id;
    if (table === 'grade_levels') return codeForOrdinal(Number(row.ordinal), row.id);
    return generatedSourcedId(table, row.id);
  }

  /**
   * A loaded table's rows. A table not loaded is refused rather than read as empty: a row source
   * that reads a table its module does not declare (`export.reads`) would otherwise write rows
   * without it, and a change to that table could go unseen by the provider's copy of the school.
   */
  loaded(table: SchoolTableName): StoredRow[] {
    const rows = this.rows.get(table);
    if (!rows) throw notDeclared(table);
    return rows;
  }

  /** The sourcedId of a record another row names, by its id. */
  ref(table: SchoolTableName, id: unknown): string {
    const ids = this.sourcedIds.get(table);
    if (!ids) throw notDeclared(table);
    if (id === null || id === undefined) return '';
    return ids.get(Number(id)) ?? generatedSourcedId(table, Number(id));
  }

  /** The sourcedIds of every record loaded. */
  storedSourcedIds(): Set<string> {
    return new Set([...this.sourcedIds.values()].flatMap((ids) => [...ids.values()]));
  }

  byId(table: SchoolTableName): Map<number, StoredRow> {
    return new Map(this.loaded(table).map((row) => [row.id, row]));
  }
}

function notDeclared(table: SchoolTableName): Error {
  return new Error(`the table ${table} is read by a row source whose module does not declare it (export.reads)`);
}

/** Writes the rows of a file and counts them. */
export async function emit<Row>(
  writer: BundleWriter,
  counts: Record<string, number>,
  name: string,
  header: readonly string[],
  rows: Iterable<Row> | AsyncIterable<Row>,
  values: (row: Row) => readonly unknown[],
): Promise<void> {
  // The binding permits no file of a header alone: a file without rows is not written (and the
  // manifest says absent), so the file is opened at its first row.
  let file: ReturnType<BundleWriter['file']> | undefined;
  let count = 0;
  for await (const row of rows) {
    file ??= writer.file(name, header);
    await file.row(values(row));
    count += 1;
  }
  if (file) await file.end();
  else await writer.omit(name);
  counts[name] = count;
}

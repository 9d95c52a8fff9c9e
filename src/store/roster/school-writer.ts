import type { ImportConnection } from './import-connection';
import {
  NULLABLE_REFERENCES,
  SCHOOL_TABLES,
  type SchoolTable,
  type SchoolTableName,
  tablesReferencing,
} from './school-tables';

/**
 * Writes an import into the school in one transaction: a bulk import replaces every table, each
 * record under the id it had; a delta changes, adds and deletes records one by one. Readers go on
 * seeing the school as it was until the commit (SQLite's WAL, PostgreSQL's MVCC).
 *
 * The service's own rows that point into the school survive: an outbox message whose device is
 * gone forgets the device, an issued document of a record or term that is gone is dropped (it is
 * regenerated on demand). Foreign keys are checked once before the commit rather than row by row
 * (a bulk replace deletes and re-inserts parents); a violation aborts the import.
 */
export async function beginSchoolChange(connection: ImportConnection): Promise<void> {
  await connection.beginSchoolChange();
}

export async function abortSchoolChange(connection: ImportConnection): Promise<void> {
  await connection.abortSchoolChange();
}

export class ForeignKeyError extends Error {}

export interface ImportLogEntry {
  readonly startedAt: string;
  readonly mode: 'bulk' | 'delta';
  readonly source: string;
  readonly rowsWritten: number;
  readonly rowsSkipped: number;
}

export async function commitSchoolChange(connection: ImportConnection, log: ImportLogEntry): Promise<void> {
  await connection.run(
    'UPDATE outbox_messages SET device_id = NULL ' +
      'WHERE device_id IS NOT NULL AND device_id NOT IN (SELECT id FROM devices)',
  );
  await connection.run(
    'DELETE FROM generated_documents WHERE student_record_id NOT IN (SELECT id FROM student_records) ' +
      'OR term_id NOT IN (SELECT id FROM terms)',
  );
  const dangling = await connection.settleSchoolChange(
    SCHOOL_TABLES.filter((table) => table.hasId).map((table) => table.name),
  );
  if (dangling) {
    throw new ForeignKeyError(
      `${dangling.count} rows would point to nothing (${dangling.table} -> ${dangling.parent})`,
    );
  }
  await connection.run(
    'INSERT INTO roster_imports (started_at, finished_at, mode, source, rows_written, rows_skipped) ' +
      'VALUES (?, ?, ?, ?, ?, ?)',
    [log.startedAt, new Date().toISOString(), log.mode, log.source, log.rowsWritten, log.rowsSkipped],
  );
  await connection.commitSchoolChange();
}

/** Empties the school's tables, children first. */
export async function clearSchoolTables(connection: ImportConnection): Promise<void> {
  for (const table of [...SCHOOL_TABLES].reverse()) await connection.run(`DELETE FROM ${table.name}`);
}

/** The columns a table's rows are given in: the id first when it has one. */
export function rowColumns(table: SchoolTable): string[] {
  return table.hasId ? ['id', ...table.columns] : [...table.columns];
}

/** Writes rows (in rowColumns order); with `upsert`, a row whose id exists replaces it. */
export async function writeRows(
  connection: ImportConnection,
  table: SchoolTable,
  rows: readonly (readonly unknown[])[],
  upsert: boolean,
): Promise<void> {
  const suffix = !upsert
    ? ''
    : table.hasId
      ? ` ON CONFLICT (id) DO UPDATE SET ${table.columns.map((column) => `${column} = excluded.${column}`).join(', ')}`
      : ' ON CONFLICT DO NOTHING';
  await connection.insert(table.name, rowColumns(table), rows, suffix);
}

/** Changes columns of records that are not rewritten whole (a delta's demographics for a student it does not list). */
export async function patchRow(
  connection: ImportConnection,
  table: SchoolTableName,
  id: number,
  columns: Readonly<Record<string, unknown>>,
): Promise<void> {
  const names = Object.keys(columns);
  await connection.run(`UPDATE ${table} SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`, [
    ...names.map((name) => columns[name]),
    id,
  ]);
}

/** Deletes the guardian links a delta restates, by the student's or the guardian's side. */
export async function deleteLinks(
  connection: ImportConnection,
  column: 'student_id' | 'guardian_id',
  ids: readonly number[],
) {
  for (const id of ids) await connection.run(`DELETE FROM student_guardians WHERE ${column} = ?`, [id]);
}

/**
 * Deletes records and everything that hangs off them: rows that point at them are deleted in turn
 * (or, where the reference may be empty, emptied), down to the marks and attendance of a student.
 */
export async function deleteWithDependents(
  connection: ImportConnection,
  table: SchoolTableName,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await deleteWhere(connection, table, `id IN (${ids.map(() => '?').join(', ')})`, ids);
}

async function deleteWhere(
  connection: ImportConnection,
  table: SchoolTableName,
  where: string,
  parameters: readonly unknown[],
): Promise<void> {
  const chosen = `SELECT id FROM ${table} WHERE ${where}`;
  for (const { table: child, column } of tablesReferencing(table)) {
    if (NULLABLE_REFERENCES.has(`${child.name}.${column}`)) {
      await connection.run(`UPDATE ${child.name} SET ${column} = NULL WHERE ${column} IN (${chosen})`, parameters);
    } else await deleteWhere(connection, child.name, `${column} IN (${chosen})`, parameters);
  }
  if (table === 'devices') {
    await connection.run(`UPDATE outbox_messages SET device_id = NULL WHERE device_id IN (${chosen})`, parameters);
  }
  if (table === 'student_records' || table === 'terms') {
    const column = table === 'terms' ? 'term_id' : 'student_record_id';
    await connection.run(`DELETE FROM generated_documents WHERE ${column} IN (${chosen})`, parameters);
  }
  await connection.run(`DELETE FROM ${table} WHERE ${where}`, parameters);
}

import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ImportConnection } from './import-connection';
import type { SchoolTable } from './school-tables';

/**
 * Reads a school table for export, a page at a time in id order, each row with the sourcedId the
 * ledger holds for it (null for a record no import brought, the demo school's). Pages keep memory
 * bounded for millions of marks, on either engine, without a cursor.
 */
export type StoredRow = Record<string, unknown> & { id: number; sourced_id: string | null; modified_at: string | null };

const PAGE = 5000;

/**
 * With `keptFile`, each row also has `kept`: the fields kept of it under that file (roster_fields,
 * as JSON), null for none: the marks' kept fields are read with them, a page at a time.
 */
export async function* readSchoolTable(
  connection: ImportConnection,
  table: SchoolTable,
  keptFile?: string,
): AsyncGenerator<StoredRow> {
  const columns = table.columns.map((column) => `t.${column}`).join(', ');
  const kept = keptFile
    ? { column: ', f.fields AS kept', join: ' LEFT JOIN roster_fields f ON f.file = ? AND f.sourced_id = r.sourced_id' }
    : { column: '', join: '' };
  let after = 0;
  for (;;) {
    const rows = await connection.all<StoredRow>(
      `SELECT t.id, ${columns}, r.sourced_id, r.modified_at${kept.column} FROM ${table.name} t ` +
        `LEFT JOIN roster_ids r ON r.kind = ? AND r.id = t.id${kept.join} WHERE t.id > ? ORDER BY t.id LIMIT ?`,
      [table.name, ...(keptFile ? [keptFile] : []), after, PAGE],
    );
    for (const row of rows) yield { ...row, id: Number(row.id) };
    if (rows.length < PAGE) return;
    after = Number(rows[rows.length - 1].id);
    // A service reading a large table (a provider's copy of the school) answers other requests between pages.
    await nextTurn();
  }
}

/** The guardian links, which have no id of their own. */
export async function readGuardianLinks(
  connection: ImportConnection,
): Promise<Array<{ student_id: number; guardian_id: number; relation: string }>> {
  const rows = await connection.all<{ student_id: number; guardian_id: number; relation: string }>(
    'SELECT student_id, guardian_id, relation FROM student_guardians ORDER BY student_id, guardian_id',
  );
  return rows.map((row) => ({ ...row, student_id: Number(row.student_id), guardian_id: Number(row.guardian_id) }));
}

/** The school the store holds, with the sourcedId an import gave it (null: the demo school's, or none). */
export async function storedSchool(
  connection: ImportConnection,
): Promise<{ name: string; sourcedId: string | null } | undefined> {
  const [row] = await connection.all<{ name_en: string; sourced_id: string | null }>(
    "SELECT s.name_en, r.sourced_id FROM schools s LEFT JOIN roster_ids r ON r.kind = 'schools' AND r.id = s.id " +
      'ORDER BY s.id LIMIT 1',
  );
  return row && { name: row.name_en, sourcedId: row.sourced_id };
}

/** How many rows each of the school's tables holds. */
export async function countSchoolRows(
  connection: ImportConnection,
  tables: readonly SchoolTable[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of tables) {
    const [row] = await connection.all<{ total: number | string }>(`SELECT COUNT(*) AS total FROM ${table.name}`);
    counts.set(table.name, Number(row?.total ?? 0));
  }
  return counts;
}

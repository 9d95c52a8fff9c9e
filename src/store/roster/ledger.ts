import type { ImportConnection } from './import-connection';
import { SCHOOL_TABLES, type SchoolTableName } from './school-tables';

/**
 * The roster ledger: the sourcedId of every record an import brought and the id it was given. Read
 * whole at the start of an import (but for marks, which may number millions and are matched in
 * the store itself), with the highest id each table has ever used.
 */
export interface LedgerEntry {
  readonly id: number;
  readonly modifiedAt: string | null;
}

export interface LoadedLedger {
  readonly entries: ReadonlyMap<string, ReadonlyMap<string, LedgerEntry>>;
  readonly highest: ReadonlyMap<string, number>;
}

export async function loadLedger(connection: ImportConnection): Promise<LoadedLedger> {
  const entries = new Map<string, Map<string, LedgerEntry>>();
  const rows = await connection.all<{ kind: string; sourced_id: string; id: number; modified_at: string | null }>(
    "SELECT kind, sourced_id, id, modified_at FROM roster_ids WHERE kind <> 'marks'",
  );
  for (const row of rows) {
    let kind = entries.get(row.kind);
    if (!kind) {
      kind = new Map();
      entries.set(row.kind, kind);
    }
    kind.set(row.sourced_id, { id: Number(row.id), modifiedAt: row.modified_at });
  }
  const highest = new Map<string, number>();
  for (const row of await connection.all<{ kind: string; top: number }>(
    'SELECT kind, MAX(id) AS top FROM roster_ids GROUP BY kind',
  )) {
    highest.set(row.kind, Number(row.top));
  }
  for (const table of SCHOOL_TABLES) {
    if (!table.hasId) continue;
    const [row] = await connection.all<{ top: number | null }>(`SELECT MAX(id) AS top FROM ${table.name}`);
    highest.set(table.name, Math.max(highest.get(table.name) ?? 0, Number(row?.top ?? 0)));
  }
  return { entries, highest };
}

/** The columns of the store's records a delta import needs to follow references, by table. */
const PRELOADED: Partial<Record<SchoolTableName, readonly string[]>> = {
  academic_years: ['starts_on', 'ends_on'],
  terms: ['academic_year_id'],
  classes: ['academic_year_id'],
  class_subjects: ['class_id', 'subject_id'],
  student_records: ['student_id', 'class_id'],
  students: ['gender', 'birth_date'],
  assessments: ['class_id', 'subject_id'],
  teacher_assignments: ['teacher_id', 'class_id', 'subject_id'],
};

/** The store's records of a table that the ledger knows, with the columns a delta import follows. */
export async function storedRecords(
  connection: ImportConnection,
  table: SchoolTableName,
): Promise<Array<{ sourcedId: string; id: number; row: Record<string, unknown> | undefined }>> {
  const columns = PRELOADED[table];
  const selected = columns ? columns.map((column) => `t.${column}`).join(', ') : '';
  const rows = await connection.all<Record<string, unknown>>(
    `SELECT r.sourced_id, r.id${selected ? `, ${selected}` : ''} FROM roster_ids r ` +
      `JOIN ${table} t ON t.id = r.id WHERE r.kind = ?`,
    [table],
  );
  return rows.map((row) => {
    const { sourced_id, id, ...rest } = row;
    return { sourcedId: String(sourced_id), id: Number(id), row: columns ? rest : undefined };
  });
}

/**
 * The other sourcedIds of records, under a kind of their own per table, so that a delta that lists
 * such a record again finds the record it is: a second scheduled class of one subject in one
 * section is the first (CLASS_ALIASES), and a teacher's second enrolment that teaches the same
 * subject to the same section is the first one's assignment (TEACHER_ASSIGNMENT_ALIASES). A bulk
 * import replaces them all.
 */
export const CLASS_ALIASES = 'class_subject_aliases';
export const TEACHER_ASSIGNMENT_ALIASES = 'teacher_assignment_aliases';
export type AliasKind = typeof CLASS_ALIASES | typeof TEACHER_ASSIGNMENT_ALIASES;

export async function recordAliases(
  connection: ImportConnection,
  kind: AliasKind,
  bulk: boolean,
  aliases: ReadonlyArray<readonly [sourcedId: string, id: number]>,
): Promise<void> {
  if (bulk) await connection.run('DELETE FROM roster_ids WHERE kind = ?', [kind]);
  await connection.insert(
    'roster_ids',
    ['kind', 'sourced_id', 'id', 'modified_at'],
    aliases.map(([sourcedId, id]) => [kind, sourcedId, id, null]),
    ' ON CONFLICT (kind, sourced_id) DO UPDATE SET id = excluded.id',
  );
}

export async function storedAliases(
  connection: ImportConnection,
  kind: AliasKind,
): Promise<Array<{ sourcedId: string; id: number }>> {
  const rows = await connection.all<{ sourced_id: string; id: number }>(
    'SELECT sourced_id, id FROM roster_ids WHERE kind = ?',
    [kind],
  );
  return rows.map((row) => ({ sourcedId: String(row.sourced_id), id: Number(row.id) }));
}

/** Drops sourcedIds from the ledger: names that no longer name their record (an ended alias, a holder that left). */
export async function forgetLedgerEntries(
  connection: ImportConnection,
  kind: string,
  sourcedIds: readonly string[],
): Promise<void> {
  for (const sourcedId of sourcedIds) {
    await connection.run('DELETE FROM roster_ids WHERE kind = ? AND sourced_id = ?', [kind, sourcedId]);
  }
}

/** The store's guardian links' relations, by `studentId guardianId`: a delta that lists one side keeps them. */
export async function storedRelations(connection: ImportConnection): Promise<Map<string, string>> {
  const rows = await connection.all<{ student_id: number; guardian_id: number; relation: string }>(
    'SELECT student_id, guardian_id, relation FROM student_guardians',
  );
  return new Map(rows.map((row) => [`${row.student_id} ${row.guardian_id}`, row.relation]));
}

/** Records the ids the import gave; a sourcedId seen before keeps its row, updated. */
export async function recordLedger(
  connection: ImportConnection,
  entries: ReadonlyArray<readonly [kind: string, sourcedId: string, id: number, modifiedAt: string | null]>,
): Promise<void> {
  await connection.insert(
    'roster_ids',
    ['kind', 'sourced_id', 'id', 'modified_at'],
    entries,
    ' ON CONFLICT (kind, sourced_id) DO UPDATE SET id = excluded.id, modified_at = excluded.modified_at',
  );
}

/**
 * The sourcedIds of the records the store holds now, per table (marks apart): the ledger keeps a
 * sourcedId after its record is deleted, so that it keeps its id if it comes back.
 */
export async function heldSourcedIds(connection: ImportConnection): Promise<Map<string, Set<string>>> {
  const held = new Map<string, Set<string>>();
  for (const table of SCHOOL_TABLES) {
    if (!table.hasId || table.name === 'marks') continue;
    const rows = await connection.all<{ sourced_id: string }>(
      `SELECT r.sourced_id FROM roster_ids r JOIN ${table.name} t ON t.id = r.id WHERE r.kind = ?`,
      [table.name],
    );
    held.set(table.name, new Set(rows.map((row) => row.sourced_id)));
  }
  return held;
}

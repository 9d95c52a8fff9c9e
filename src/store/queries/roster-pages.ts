import type { ImportConnection } from '../roster/import-connection';
import type { StoredRow } from '../roster/school-reader';
import { type SchoolTable, type SchoolTableName, schoolTable } from '../roster/school-tables';

/**
 * What a reader of one page of a OneRoster file reads of the store (the provider's users, a
 * page at a time): some rows of a table with their ledger's sourcedId, the guardian links of those
 * rows, and which sourcedIds the school knows. Each statement reads what the page names, never a
 * whole table, so that a page costs the same on the first request after a start as on the next.
 */

/** Ids and sourcedIds looked up per statement: within every engine's limit of bound parameters. */
const LOOKUP_BATCH = 1000;

function batches<Value>(values: readonly Value[]): Value[][] {
  const parts: Value[][] = [];
  for (let start = 0; start < values.length; start += LOOKUP_BATCH)
    parts.push(values.slice(start, start + LOOKUP_BATCH));
  return parts;
}

const places = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** The SELECT of a table's rows as the export reads them (school-reader.ts): its columns, sourcedId, modified_at. */
function storedRowsSelect(table: SchoolTable): string {
  const columns = table.columns.map((column) => `t.${column}`).join(', ');
  return (
    `SELECT t.id, ${columns}, r.sourced_id, r.modified_at FROM ${table.name} t ` +
    'LEFT JOIN roster_ids r ON r.kind = ? AND r.id = t.id'
  );
}

const withNumericIds = (rows: StoredRow[]): StoredRow[] => rows.map((row) => ({ ...row, id: Number(row.id) }));

/**
 * At most `limit` rows of a table in id order, the rows of `without` not counted: from the
 * `from.offset`-th (the ids before it are skipped in the table's index alone, never joined), or
 * after the row of id `from.after` (where the last piece of a page ended).
 */
export async function tableRowsAt(
  connection: ImportConnection,
  name: SchoolTableName,
  from: { readonly offset: number } | { readonly after: number },
  limit: number,
  without: readonly number[],
): Promise<StoredRow[]> {
  const table = schoolTable(name);
  const left = (alias: string) => (without.length > 0 ? ` AND ${alias}.id NOT IN (${places(without)})` : '');
  const start =
    'after' in from
      ? { where: 't.id > ?', parameters: [from.after] }
      : {
          where: `t.id >= (SELECT s.id FROM ${table.name} s WHERE 1 = 1${left('s')} ORDER BY s.id LIMIT 1 OFFSET ?)`,
          parameters: [...without, from.offset],
        };
  const rows = await connection.all<StoredRow>(
    `${storedRowsSelect(table)} WHERE ${start.where}${left('t')} ORDER BY t.id LIMIT ?`,
    [table.name, ...start.parameters, ...without, limit],
  );
  return withNumericIds(rows);
}

/** The rows of a table with these ids, in id order. */
export async function tableRowsWithIds(
  connection: ImportConnection,
  name: SchoolTableName,
  ids: readonly number[],
): Promise<StoredRow[]> {
  const table = schoolTable(name);
  const rows: StoredRow[] = [];
  for (const batch of batches(ids)) {
    rows.push(
      ...(await connection.all<StoredRow>(`${storedRowsSelect(table)} WHERE t.id IN (${places(batch)})`, [
        table.name,
        ...batch,
      ])),
    );
  }
  return withNumericIds(rows).sort((a, b) => a.id - b.id);
}

/** A guardian link, with the sourcedId the ledger holds for its guardian (null: none). */
export interface NamedGuardianLink {
  readonly student_id: number;
  readonly guardian_id: number;
  readonly relation: string;
  readonly guardian_sourced_id: string | null;
}

/** The guardian links of these students and of these guardians, in (student, guardian) order. */
export async function guardianLinksOf(
  connection: ImportConnection,
  students: readonly number[],
  guardians: readonly number[],
): Promise<NamedGuardianLink[]> {
  const found = new Map<string, NamedGuardianLink>();
  for (const [column, ids] of [
    ['student_id', students],
    ['guardian_id', guardians],
  ] as const) {
    for (const batch of batches(ids)) {
      const rows = await connection.all<NamedGuardianLink>(
        'SELECT l.student_id, l.guardian_id, l.relation, r.sourced_id AS guardian_sourced_id ' +
          "FROM student_guardians l LEFT JOIN roster_ids r ON r.kind = 'guardians' AND r.id = l.guardian_id " +
          `WHERE l.${column} IN (${places(batch)})`,
        batch,
      );
      for (const row of rows) {
        const link = { ...row, student_id: Number(row.student_id), guardian_id: Number(row.guardian_id) };
        found.set(`${link.student_id} ${link.guardian_id}`, link);
      }
    }
  }
  return [...found.values()].sort((a, b) => a.student_id - b.student_id || a.guardian_id - b.guardian_id);
}

/** Of these sourcedIds, those the ledger holds for a record of one of `tables` that the store still has. */
export async function ledgeredSourcedIds(
  connection: ImportConnection,
  tables: readonly SchoolTableName[],
  sourcedIds: readonly string[],
): Promise<Set<string>> {
  const held = tables.map((table) => `(r.kind = '${table}' AND EXISTS (SELECT 1 FROM ${table} t WHERE t.id = r.id))`);
  const known = new Set<string>();
  for (const batch of batches(sourcedIds)) {
    const rows = await connection.all<{ sourced_id: string }>(
      `SELECT r.sourced_id FROM roster_ids r WHERE r.kind IN (${places(tables)}) ` +
        `AND r.sourced_id IN (${places(batch)}) AND (${held.join(' OR ')})`,
      [...tables, ...batch],
    );
    for (const row of rows) known.add(row.sourced_id);
  }
  return known;
}

/** Of these ids of a table, those of records the ledger holds no sourcedId for (their sourcedId is made up). */
export async function unledgeredIds(
  connection: ImportConnection,
  table: SchoolTableName,
  ids: readonly number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const batch of batches(ids)) {
    const rows = await connection.all<{ id: number }>(
      `SELECT t.id FROM ${schoolTable(table).name} t WHERE t.id IN (${places(batch)}) ` +
        'AND NOT EXISTS (SELECT 1 FROM roster_ids r WHERE r.kind = ? AND r.id = t.id)',
      [...batch, table],
    );
    for (const row of rows) found.add(Number(row.id));
  }
  return found;
}

/**
 * Of these sourcedIds, those of a row kept whole (with its sourcedId) under one of `files`, but a
 * stored mark's row of results.csv, which a reader of the kept rows takes with its mark.
 */
export async function keptWholeSourcedIds(
  connection: ImportConnection,
  files: readonly string[],
  sourcedIds: readonly string[],
): Promise<Set<string>> {
  const hasSourcedId = `${connection.engine.jsonText('f.fields')} IS NOT NULL`;
  const path = connection.engine.jsonKeyParameter('sourcedId');
  const known = new Set<string>();
  for (const file of files) {
    for (const batch of batches(sourcedIds)) {
      const rows = await connection.all<{ sourced_id: string }>(
        `SELECT f.sourced_id FROM roster_fields f WHERE f.file = ? AND f.sourced_id IN (${places(batch)}) ` +
          `AND ${hasSourcedId} AND NOT (f.file = 'results.csv' AND EXISTS ` +
          "(SELECT 1 FROM roster_ids r WHERE r.kind = 'marks' AND r.sourced_id = f.sourced_id))",
        [file, ...batch, path],
      );
      for (const row of rows) known.add(row.sourced_id);
    }
  }
  return known;
}

/** A table of a file's stored rows, and the role its rows have unless a kept field says otherwise. */
export interface RoleTable {
  readonly table: SchoolTableName;
  /** The role every row of the table is exported with; undefined when it varies (a guardian's relation). */
  readonly role: string | undefined;
}

/** A kept row that may not be as its table says: its fields, and the stored record its sourcedId is of, if any. */
export interface KeptRowToResolve {
  readonly sourced_id: string;
  readonly fields: string;
  /** The table and id of the record the ledger gives this sourcedId to. */
  readonly table: SchoolTableName | undefined;
  readonly id: number | undefined;
}

/**
 * The kept rows of `file` (users.csv) a page cannot take on trust, in sourcedId order: those the
 * ledger gives to no record of `tables` the store still has (rows kept alone, or of a record whose
 * sourcedId is made up) and those whose kept fields may give a role other than the table's: a
 * `role` field (any case) that is not exactly the table's role, more than one, or, for a table
 * without one, one that starts as one of `roles` (compared lower-cased). The JSON is as the import
 * wrote it (no spaces), so that a key `"role":` is found as text; a row found needlessly is only read.
 */
export async function keptRowsToResolve(
  connection: ImportConnection,
  file: string,
  tables: readonly RoleTable[],
  roles: readonly string[],
): Promise<KeptRowToResolve[]> {
  const lower = 'LOWER(f.fields)';
  const roleKeys = `(LENGTH(${lower}) - LENGTH(REPLACE(${lower}, '"role":', '')))`;
  const holds = (text: string) => `REPLACE(f.fields, '${text}', '') <> f.fields`;
  const exactly = (role: string) => `(${holds(`"role":"${role}",`)} OR ${holds(`"role":"${role}"}`)})`;
  const regular = (role: string | undefined) =>
    role === undefined
      ? `(${roles.map((other) => `${lower} NOT LIKE '%"role":"${other}%'`).join(' AND ')})`
      : `(${roleKeys} = 7 AND ${exactly(role)})`;
  const joins = tables.map(
    ({ table }, index) =>
      `LEFT JOIN roster_ids r${index} ON r${index}.kind = '${table}' AND r${index}.sourced_id = f.sourced_id ` +
      `LEFT JOIN ${schoolTable(table).name} t${index} ON t${index}.id = r${index}.id`,
  );
  const stored = tables.map((_, index) => `t${index}.id IS NOT NULL`).join(' OR ');
  const trusted = tables.map(({ role }, index) => `(t${index}.id IS NOT NULL AND ${regular(role)})`).join(' OR ');
  const ids = tables.map((_, index) => `t${index}.id AS id${index}`).join(', ');
  const rows = await connection.all<Record<string, unknown> & { sourced_id: string; fields: string }>(
    `SELECT f.sourced_id, f.fields, ${ids} FROM roster_fields f ${joins.join(' ')} WHERE f.file = ? ` +
      `AND NOT ((${stored}) AND (${lower} NOT LIKE '%"role":%' OR ${trusted})) ORDER BY f.sourced_id`,
    [file],
  );
  return rows.map((row) => {
    const at = tables.findIndex((_, index) => row[`id${index}`] !== null && row[`id${index}`] !== undefined);
    return {
      sourced_id: row.sourced_id,
      fields: row.fields,
      table: at < 0 ? undefined : tables[at].table,
      id: at < 0 ? undefined : Number(row[`id${at}`]),
    };
  });
}

/** The sourcedIds of the kept rows of `file` that hold each key, the first of them in sourcedId order. */
export async function firstKeptRowsHolding(
  connection: ImportConnection,
  file: string,
  keys: readonly string[],
): Promise<Array<{ sourced_id: string; fields: string }>> {
  const first = new Set<string>();
  for (const key of keys) {
    const [row] = await connection.all<{ sourced_id: string }>(
      `SELECT f.sourced_id FROM roster_fields f WHERE f.file = ? AND ${connection.engine.jsonText('f.fields')} ` +
        'IS NOT NULL ORDER BY f.sourced_id LIMIT 1',
      [file, connection.engine.jsonKeyParameter(key)],
    );
    if (row) first.add(row.sourced_id);
  }
  if (first.size === 0) return [];
  return connection.all<{ sourced_id: string; fields: string }>(
    `SELECT f.sourced_id, f.fields FROM roster_fields f WHERE f.file = ? AND f.sourced_id IN (${places([...first])}) ` +
      'ORDER BY f.sourced_id',
    [file, ...first],
  );
}

/** Every kept row of `file`, in sourcedId order. */
export function keptRowsOfFile(
  connection: ImportConnection,
  file: string,
): Promise<Array<{ sourced_id: string; fields: string }>> {
  return connection.all('SELECT f.sourced_id, f.fields FROM roster_fields f WHERE f.file = ? ORDER BY f.sourced_id', [
    file,
  ]);
}

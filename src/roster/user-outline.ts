import type { ImportConnection } from '../store/roster/import-connection';
import { keptColumns, keptRowsOf } from '../store/roster/kept-fields';
import { countSchoolRows, type StoredRow } from '../store/roster/school-reader';
import { type SchoolTableName, schoolTable } from '../store/roster/school-tables';
import {
  firstKeptRowsHolding,
  keptRowsOfFile,
  type KeptRowToResolve,
  keptRowsToResolve,
  type RoleTable,
  unledgeredIds,
} from '../store/queries/roster-pages';
import { users } from './collections/users';
import { extraColumns, type KeptMerge, type MergedColumns, mergedColumns, namesIn, namesKnown } from './giving-back';
import { isNeverKept } from './kept-fields';
import { knownNames } from './known-names';
import { requiredColumnsOf } from './oneroster-columns';
import { SchoolSnapshot } from './school-snapshot';
import { generatedIdOf } from './sourced-ids';
import { restoreCell } from './spreadsheet-cells';

/**
 * What a reader of users.csv a page at a time must know of the whole file before its first row,
 * read without reading the file: how many rows each user table gives, the columns the kept fields
 * add to the header, the stored users a kept field gives another role than their table's (a
 * teacher kept as `Student` is no teacher, nor a student), and the kept rows the store holds no
 * record of, which end the file. Small for a school as imported; a school whose file has more of
 * those than a page can hold is read whole (undefined).
 */
export interface UsersOutline {
  readonly counts: ReadonlyMap<string, number>;
  /** By table, the rows (by id) whose kept role is not their table's, and that role. */
  readonly roles: ReadonlyMap<SchoolTableName, ReadonlyMap<number, string>>;
  /** The kept rows given back on their own, in sourcedId order, each with the role its cell reads. */
  readonly alone: readonly { readonly fields: Readonly<Record<string, string>>; readonly role?: string }[];
  /** What the rows kept alone are merged by. */
  readonly merge: KeptMerge;
  /** The school's own row, which every user names. */
  readonly schools: StoredRow[];
  /** The file's columns, read when a page's first row is made (after its count is answered), once. */
  layout(connection: ImportConnection): Promise<UsersLayout>;
}

/** users.csv's columns: the export's header and the kept columns it lacks, as the export writes them. */
export interface UsersLayout {
  readonly header: readonly string[];
  readonly columns: MergedColumns;
}

export const USERS_FILE = 'users.csv';

/** Each user table in the file's order and the role its rows are exported with (a guardian's: its relation). */
export const USER_ROLE_TABLES: readonly RoleTable[] = [
  { table: 'students', role: 'student' },
  { table: 'teachers', role: 'teacher' },
  { table: 'guardians', role: undefined },
];

/** The roles a collection of users is chosen by (students, teachers). */
export const CHOSEN_ROLES = ['student', 'teacher'];

/** Beyond these many kept rows to look at, the file is read whole. */
const MOST_ROWS_TO_RESOLVE = 10_000;

/** A kept row's fields (as stored, JSON, or read) as the export gives them back: without a column never kept. */
export function keptFieldsOf(kept: string | Readonly<Record<string, string>>): Record<string, string> {
  const fields = typeof kept === 'string' ? (JSON.parse(kept) as Record<string, string>) : { ...kept };
  for (const column of Object.keys(fields)) if (isNeverKept(column)) delete fields[column];
  return fields;
}

/** The role a row's kept fields give it (the last `role` column in any case), as a reader reads the cell. */
function keptRole(fields: Readonly<Record<string, string>>): string | undefined {
  let role: string | undefined;
  for (const [column, value] of Object.entries(fields)) if (column.toLowerCase() === 'role') role = value;
  return role === undefined ? undefined : restoreCell(String(role));
}

/**
 * The kept columns the header lacks, in the order the whole file's rows first have them: found
 * from the first row holding each, which is where a reading of every row first meets it (every
 * row is read only for a key the engine cannot look up, with a quote in its name).
 */
async function usersLayout(connection: ImportConnection): Promise<UsersLayout> {
  const header: readonly string[] = users.export.header;
  const present = new Set(header.map((column) => column.toLowerCase()));
  const keys = (await keptColumns(connection, USERS_FILE)).filter(
    (key) => !isNeverKept(key) && !present.has(key.toLowerCase()),
  );
  const rows = keys.length === 0 ? [] : await firstKeptRowsHolding(connection, USERS_FILE, keys);
  const rowsOf = (found: Array<{ sourced_id: string; fields: string }>) =>
    new Map(found.map((row) => [row.sourced_id, keptFieldsOf(row.fields)]));
  let extra = extraColumns(header, rowsOf(rows));
  if (extra.length !== new Set(keys.map((key) => key.toLowerCase())).size)
    extra = extraColumns(header, rowsOf(await keptRowsOfFile(connection, USERS_FILE)));
  return { header: [...header, ...extra], columns: mergedColumns(header, extra) };
}

/** The rows no ledger entry gives to a record, given to the record whose made-up sourcedId they carry. */
async function withMadeUpIds(connection: ImportConnection, rows: KeptRowToResolve[]): Promise<KeptRowToResolve[]> {
  const resolved = [...rows];
  for (const { table } of USER_ROLE_TABLES) {
    const ids = new Map<number, number>();
    for (const [index, row] of resolved.entries()) {
      const id = row.table ? undefined : generatedIdOf(table, row.sourced_id);
      if (id !== undefined) ids.set(id, index);
    }
    for (const id of await unledgeredIds(connection, table, [...ids.keys()])) {
      const index = ids.get(id);
      if (index !== undefined) resolved[index] = { ...resolved[index], table, id };
    }
  }
  return resolved;
}

/**
 * What of the outline takes a pass over every kept user (half a second for 100,000 users), as the
 * import saves it with the store's version: the users a kept role moves to another collection (by
 * table and id), the kept rows of no record (by sourcedId, in sourcedId order), the columns the
 * kept fields add (once worked out), or `whole` when the file is better read whole.
 */
export interface UsersExceptions {
  readonly whole: boolean;
  readonly roles: ReadonlyArray<readonly [SchoolTableName, number, string]>;
  readonly alone: readonly string[];
  readonly extra?: readonly string[];
}

/** The exceptions of the school's users.csv, read now. */
export async function readUsersExceptions(connection: ImportConnection): Promise<UsersExceptions> {
  const found = await keptRowsToResolve(connection, USERS_FILE, USER_ROLE_TABLES, CHOSEN_ROLES);
  if (found.length > MOST_ROWS_TO_RESOLVE) return { whole: true, roles: [], alone: [] };
  const roles: Array<[SchoolTableName, number, string]> = [];
  const alone: string[] = [];
  for (const row of await withMadeUpIds(connection, found)) {
    const fields = keptFieldsOf(row.fields);
    if (row.table === undefined || row.id === undefined) {
      if ('sourcedId' in fields) alone.push(row.sourced_id);
      continue;
    }
    const base = USER_ROLE_TABLES.find(({ table }) => table === row.table)?.role;
    const role = keptRole(fields) ?? base;
    const other = base === undefined ? role !== undefined && CHOSEN_ROLES.includes(role) : role !== base;
    if (other) roles.push([row.table, row.id, role ?? '']);
  }
  return { whole: false, roles, alone };
}

/** The columns the kept fields add to users.csv's header, read now. */
export async function readUsersExtraColumns(connection: ImportConnection): Promise<string[]> {
  return (await usersLayout(connection)).header.slice(users.export.header.length);
}

function layoutOf(extra: readonly string[]): UsersLayout {
  const { header } = users.export;
  return { header: [...header, ...extra], columns: mergedColumns(header, extra) };
}

/**
 * The outline of the school's users.csv from its exceptions (read now, or saved at the store's
 * version), or undefined when the file is better read whole. The rest is read by the rows it
 * names: the counts, the fields of the rows kept alone, the school.
 */
export async function readUsersOutline(
  connection: ImportConnection,
  saved?: UsersExceptions,
): Promise<UsersOutline | undefined> {
  const tables = USER_ROLE_TABLES.map(({ table }) => schoolTable(table));
  const counts = await countSchoolRows(connection, tables);
  // A school without users writes no users.csv, or one of kept rows alone: read whole.
  if ([...counts.values()].every((count) => count === 0)) return undefined;
  const exceptions = saved ?? (await readUsersExceptions(connection));
  if (exceptions.whole) return undefined;
  const roles = new Map<SchoolTableName, Map<number, string>>(USER_ROLE_TABLES.map(({ table }) => [table, new Map()]));
  for (const [table, id, role] of exceptions.roles) roles.get(table)?.set(id, role);
  const keptAlone = await keptRowsOf(connection, USERS_FILE, exceptions.alone);
  const alone = exceptions.alone.flatMap((sourcedId) => {
    const fields = keptAlone.get(sourcedId);
    return fields ? [keptFieldsOf(fields)] : [];
  });
  const known = await knownNames(connection, alone.flatMap(namesIn));
  const needed = new Set(requiredColumnsOf(USERS_FILE, '1.1').map((column) => column.toLowerCase()));
  let layout: Promise<UsersLayout> | undefined = exceptions.extra && Promise.resolve(layoutOf(exceptions.extra));
  return {
    counts,
    roles,
    alone: alone.filter((fields) => namesKnown(known, fields)).map((fields) => ({ fields, role: keptRole(fields) })),
    merge: { needed, known },
    schools: await new SchoolSnapshot(connection).load('schools'),
    layout(reader) {
      layout ??= usersLayout(reader);
      // A failed read (the store unreachable) is not kept: the next page tries again.
      layout.catch(() => {
        layout = undefined;
      });
      return layout;
    },
  };
}

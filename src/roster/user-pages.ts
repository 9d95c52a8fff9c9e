import type { ImportConnection } from '../store/roster/import-connection';
import { keptRowsOf } from '../store/roster/kept-fields';
import type { StoredRow } from '../store/roster/school-reader';
import type { SchoolTableName } from '../store/roster/school-tables';
import { guardianLinksOf, tableRowsAt, tableRowsWithIds } from '../store/queries/roster-pages';
import { cellsOf } from './collections/collection';
import { users } from './collections/users';
import { type MergedColumns, mergedRow, namesIn } from './giving-back';
import { knownNames } from './known-names';
import { SchoolSnapshot } from './school-snapshot';
import { keptFieldsOf, USER_ROLE_TABLES, USERS_FILE, type UsersOutline } from './user-outline';

/** A row of users.csv as a reader of the export's files sees it: the cells in the header's order. */
export type UserRowVisit = (values: readonly unknown[]) => boolean | Promise<boolean>;

/**
 * users.csv a page at a time, from the store: the rows of one role (every row when undefined) from
 * the `start`-th, each made as the export makes it (its record, its guardians, the fields kept of
 * it given back) from what the page's rows name alone. The rows are those the whole file has, in
 * its order (the students, the teachers, the guardians, each by id, then the kept rows alone).
 */
export interface UserPages {
  /** The file's columns, worked out once a version of the school (after a count, before the first row). */
  columns(): Promise<readonly string[]>;
  total(role: string | undefined): number;
  /** `piece`: rows read and made per statement (a thousand unless said). */
  rows(role: string | undefined, start: number, count: number, visit: UserRowVisit, piece?: number): Promise<void>;
}

/** Rows read and made per statement: a 10,000-row page is made in pieces, its memory flat. */
const CHUNK = 1000;

/** The rows of one user table a role's collection has: how many, and a piece of them. */
interface Segment {
  readonly table: SchoolTableName;
  readonly count: number;
  /** At most `limit` rows from the `offset`-th, which follows the row of id `after` when given. */
  read(offset: number, limit: number, after: number | undefined): Promise<StoredRow[]>;
}

function segmentsOf(connection: ImportConnection, outline: UsersOutline, role: string | undefined): Segment[] {
  return USER_ROLE_TABLES.map(({ table, role: base }): Segment => {
    const others = outline.roles.get(table) ?? new Map<number, string>();
    const count = outline.counts.get(table) ?? 0;
    if (role !== undefined && role !== base) {
      const ids = [...others.keys()].filter((id) => others.get(id) === role).sort((a, b) => a - b);
      const read = (offset: number, limit: number) =>
        tableRowsWithIds(connection, table, ids.slice(offset, offset + limit));
      return { table, count: ids.length, read };
    }
    // Every row of the table but those a kept field gives another role.
    const without = role === undefined ? [] : [...others.keys()];
    const read = (offset: number, limit: number, after: number | undefined) =>
      tableRowsAt(connection, table, after === undefined ? { offset } : { after }, limit, without);
    return { table, count: count - without.length, read };
  });
}

/** Some stored rows of one user table as rows of users.csv, the fields kept of them given back. */
async function exportedRows(
  connection: ImportConnection,
  outline: UsersOutline,
  table: SchoolTableName,
  rows: StoredRow[],
  columns: MergedColumns,
): Promise<unknown[][]> {
  const ids = rows.map((row) => row.id);
  const links = await guardianLinksOf(connection, table === 'students' ? ids : [], table === 'guardians' ? ids : []);
  const school = new SchoolSnapshot(connection);
  school.hold('schools', outline.schools);
  const linked = links.map((link) => ({
    id: link.guardian_id,
    sourced_id: link.guardian_sourced_id,
    modified_at: null,
  }));
  for (const { table: each } of USER_ROLE_TABLES)
    school.hold(each, each === table ? rows : [], each === 'guardians' ? linked : []);
  const header = users.export.header;
  const cells = [...users.export.rows({ school, links, keptColumns: async () => [] })].map((record) =>
    cellsOf(header, record),
  );
  const kept = await keptRowsOf(
    connection,
    USERS_FILE,
    cells.map((values) => String(values[0] ?? '')),
  );
  const fieldsOf = new Map([...kept].map(([sourcedId, fields]) => [sourcedId, keptFieldsOf(fields)]));
  // The records the page's rows name that were just read (the school, their guardians) need no look-up.
  const stored = new Set(school.storedSourcedIds());
  const known = await knownNames(connection, [...fieldsOf.values()].flatMap(namesIn), stored);
  const merge = { ...outline.merge, known };
  return cells.map((values) => mergedRow(merge, columns, values, fieldsOf.get(String(values[0] ?? ''))));
}

export function userPages(connection: ImportConnection, outline: UsersOutline): UserPages {
  const alone = (role: string | undefined) =>
    role === undefined ? outline.alone : outline.alone.filter((row) => row.role === role);
  return {
    columns: async () => (await outline.layout(connection)).header,
    total: (role) =>
      segmentsOf(connection, outline, role).reduce((sum, segment) => sum + segment.count, 0) + alone(role).length,
    async rows(role, start, count, visit, piece = CHUNK) {
      const { columns } = await outline.layout(connection);
      let skip = start;
      let left = count;
      for (const segment of segmentsOf(connection, outline, role)) {
        let after: number | undefined;
        for (let at = skip; at < segment.count && left > 0; at += piece) {
          const rows = await segment.read(at, Math.min(piece, left), after);
          after = rows[rows.length - 1]?.id;
          if (after === undefined) break;
          for (const values of await exportedRows(connection, outline, segment.table, rows, columns)) {
            left -= 1;
            if (!(await visit(values))) return;
          }
        }
        skip = Math.max(0, skip - segment.count);
      }
      for (const { fields } of alone(role).slice(skip, skip + left))
        if (!(await visit(mergedRow(outline.merge, columns, [], fields)))) return;
    },
  };
}

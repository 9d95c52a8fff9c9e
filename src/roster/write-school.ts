import type { ImportConnection } from '../store/roster/import-connection';
import { recordLedger } from '../store/roster/ledger';
import { SCHOOL_TABLES, type SchoolTableName } from '../store/roster/school-tables';
import {
  abortSchoolChange,
  beginSchoolChange,
  clearSchoolTables,
  commitSchoolChange,
  deleteLinks,
  deleteWithDependents,
  patchRow,
  writeRows,
} from '../store/roster/school-writer';
import { writeStagedMarkFields, writeStagedMarks } from '../store/roster/staged-marks';
import { holdBeforeWrite, recordImportTombstones } from '../store/roster/tombstones';
import type { ImportContext } from './import-context';
import type { Entry, RosterBook } from './roster-book';
import { recordOtherNames } from './stored-records';

/** The ids a delta deletes, per table: those writeSchool deletes with their dependents. */
export function deletedIds(book: RosterBook): Map<SchoolTableName, number[]> {
  return new Map(SCHOOL_TABLES.map((table) => [table.name, book.deletions(table.name).map((entry) => entry.id)]));
}

/** A record's row in the store's column order, its references turned into ids. */
function valuesOf(entry: Entry, columns: readonly string[]): unknown[] {
  return [
    entry.id,
    ...columns.map((column) => {
      const value = entry.row?.[column];
      if (typeof value === 'object' && value !== null) return (value as Entry).id;
      return value ?? null;
    }),
  ];
}

/**
 * Writes what the bundle holds in one transaction, with the change's log line: a bulk import
 * replaces the school's tables, a delta deletes and upserts; rolled back whole on any failure.
 */
export async function writeSchool(
  context: ImportContext,
  connection: ImportConnection,
  marks: { readonly count: number; readonly deleted: number },
  log: Parameters<typeof commitSchoolChange>[1],
): Promise<void> {
  const { book } = context;
  const delta = context.mode === 'delta';
  const markCount = marks.count;
  await beginSchoolChange(connection);
  try {
    const deleted = deletedIds(book);
    // The marks it deletes are held for their tombstones; an import that deletes none reads none.
    await holdBeforeWrite(connection, marks.deleted === 0 ? 'none' : delta ? deleted : 'bulk');
    if (!delta) await clearSchoolTables(connection);
    // A delta's deletions before its rows: a scheduled class placed again may take the section and
    // subject of one it deletes.
    for (const table of [...SCHOOL_TABLES].reverse()) {
      await deleteWithDependents(connection, table.name, deleted.get(table.name) ?? []);
    }
    // The write shows its progress as the read does: a line per table written.
    const { progress } = context;
    for (const table of SCHOOL_TABLES) {
      progress.file(`writing ${table.name.replace(/_/g, ' ')}`, 0);
      if (table.name === 'marks') {
        await writeStagedMarks(connection, delta);
        progress.fileDone(markCount);
      } else if (table.name === 'student_guardians') progress.fileDone(await writeLinks(context, connection));
      else {
        const rows = book.entries(table.name).map((entry) => valuesOf(entry, table.columns));
        await writeRows(connection, table, rows, delta);
        progress.fileDone(rows.length);
      }
    }
    for (const patch of context.patches) await patchRow(connection, patch.table, patch.id, patch.columns);
    const ledger = SCHOOL_TABLES.flatMap((table) =>
      book
        .entries(table.name)
        .map((entry) => [table.name, entry.sourcedId, entry.id, entry.modifiedAt ?? null] as const),
    );
    await recordLedger(connection, ledger);
    await recordOtherNames(context, connection);
    await context.kept.write(connection, !delta);
    await writeStagedMarkFields(connection, delta);
    // What the write deleted, for a OneRoster consumer reading changes: in the same transaction.
    await recordImportTombstones(connection, new Date().toISOString());
    await commitSchoolChange(connection, log);
  } catch (error) {
    await abortSchoolChange(connection);
    throw error;
  }
}

/** The guardian links; a delta restates the links of each user it lists. Returns how many are written. */
async function writeLinks(context: ImportContext, connection: ImportConnection): Promise<number> {
  const table = SCHOOL_TABLES.find((candidate) => candidate.name === 'student_guardians');
  if (!table) return 0;
  if (context.mode === 'delta') {
    await deleteLinks(
      connection,
      'student_id',
      context.book.entries('students').map((entry) => entry.id),
    );
    await deleteLinks(
      connection,
      'guardian_id',
      context.book.entries('guardians').map((entry) => entry.id),
    );
  }
  const live = (entry: Entry) => context.book.find(entry.table, entry.sourcedId) === entry;
  const rows = context.links
    .filter((link) => live(link.student) && live(link.guardian))
    .map((link) => [link.student.id, link.guardian.id, link.relation]);
  await writeRows(connection, table, rows, context.mode === 'delta');
  return rows.length;
}

import type { SchoolTableName } from '../store/roster/school-tables';
import { SCHOOL_TABLES } from '../store/roster/school-tables';
import type { RosterBook } from './roster-book';

/**
 * What an import does to the store, per kind: the figures its summary, a dry run and a sync's
 * report all give, worked out before anything is written, so that a dry run and the real run say
 * the same. Added: a record the store does not hold now (new, or one deleted before and back);
 * changed: one it holds that the bundle gives again (a delta: only when newer); deleted: one it
 * holds that a delta marks tobedeleted, or that a bulk import leaves out. Marks are counted as the
 * rest, from the staged results. Deleting a record deletes what hangs off it as well (a class's
 * enrolments, an assessment's marks, a student's records and marks): a delta counts those among
 * the deleted of their own kind, each once (a bulk import's count of what it leaves out has them).
 */
export interface Change {
  readonly added: number;
  readonly changed: number;
  readonly deleted: number;
}

export type Changes = Partial<Record<SchoolTableName, Change>>;

export interface ChangeFacts {
  readonly book: RosterBook;
  /** The sourcedIds of the records the store holds, per table (marks apart). */
  readonly held: ReadonlyMap<string, ReadonlySet<string>>;
  /** Rows per table in the store before the import. */
  readonly stored: ReadonlyMap<string, number>;
  /** Records of the store a delta changes without listing them (a demographics row patches its student). */
  readonly patches: ReadonlyArray<{ readonly table: SchoolTableName; readonly id: number }>;
  readonly marks: Change;
  /** A delta's: the rows its deletions take with them, per table (cascadedDeletions). */
  readonly cascaded: ReadonlyMap<string, number>;
}

export function changesOf(facts: ChangeFacts): Changes {
  const { book, held, stored } = facts;
  const changes: Changes = {};
  for (const table of SCHOOL_TABLES) {
    if (table.name === 'student_guardians') continue;
    let change: Change;
    const cascaded = book.mode === 'delta' ? (facts.cascaded.get(table.name) ?? 0) : 0;
    if (table.name === 'marks') change = { ...facts.marks, deleted: facts.marks.deleted + cascaded };
    else {
      const holds = held.get(table.name);
      const entries = book.entries(table.name);
      const heldAgain = entries.filter((entry) => holds?.has(entry.sourcedId)).length;
      const changed = heldAgain + patchedOnly(facts.patches, table.name, entries);
      const deleted =
        book.mode === 'delta'
          ? book.deletions(table.name).filter((entry) => holds?.has(entry.sourcedId)).length + cascaded
          : Math.max((stored.get(table.name) ?? 0) - heldAgain, 0);
      change = { added: entries.length - heldAgain, changed, deleted };
    }
    if (change.added + change.changed + change.deleted > 0) changes[table.name] = change;
  }
  return changes;
}

/** Records changed by a patch alone (a store's student whose demographics a delta brings, not the student). */
function patchedOnly(
  patches: ChangeFacts['patches'],
  table: SchoolTableName,
  entries: ReturnType<RosterBook['entries']>,
): number {
  const listed = new Set(entries.map((entry) => entry.id));
  return new Set(patches.filter((patch) => patch.table === table && !listed.has(patch.id)).map((patch) => patch.id))
    .size;
}

/** All kinds together. */
export function changeTotals(changes: Changes | undefined): Change {
  const totals = { added: 0, changed: 0, deleted: 0 };
  for (const change of Object.values(changes ?? {})) {
    totals.added += change?.added ?? 0;
    totals.changed += change?.changed ?? 0;
    totals.deleted += change?.deleted ?? 0;
  }
  return totals;
}

/** Records of the bundle by table (marks counted apart, from the staged results). */
export function countRecords(book: RosterBook): Partial<Record<SchoolTableName, number>> {
  const counts: Partial<Record<SchoolTableName, number>> = {};
  for (const table of SCHOOL_TABLES) {
    const count = table.name === 'student_guardians' ? 0 : book.entries(table.name).length;
    if (count > 0) counts[table.name] = count;
  }
  return counts;
}

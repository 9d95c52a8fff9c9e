import type { ImportConnection } from '../store/roster/import-connection';
import {
  CLASS_ALIASES,
  forgetLedgerEntries,
  type loadLedger,
  recordAliases,
  recordLedger,
  storedAliases,
  storedRecords,
  TEACHER_ASSIGNMENT_ALIASES,
} from '../store/roster/ledger';
import { SCHOOL_TABLES } from '../store/roster/school-tables';
import type { ImportContext } from './import-context';
import type { Ledger, RosterBook } from './roster-book';

/** What a delta import knows of the store before it reads a row: the ledger and the records it names. */
export function ledgerView(ledger: Awaited<ReturnType<typeof loadLedger>>): Ledger {
  return {
    idOf: (table, sourcedId) => ledger.entries.get(table)?.get(sourcedId),
    highestId: (table) => ledger.highest.get(table) ?? 0,
  };
}

export async function preloadStore(connection: ImportConnection, book: RosterBook): Promise<void> {
  for (const table of SCHOOL_TABLES) {
    if (!table.hasId || table.name === 'marks') continue;
    for (const record of await storedRecords(connection, table.name)) {
      book.preload(table.name, record.sourcedId, record.id, record.row);
    }
  }
  // A second scheduled class of one subject in one section is the first: a delta naming it names
  // that record; so is a teacher's second enrolment teaching what the first does.
  for (const [table, kind] of [
    ['class_subjects', CLASS_ALIASES],
    ['teacher_assignments', TEACHER_ASSIGNMENT_ALIASES],
  ] as const) {
    const records = new Map(book.all(table).map((entry) => [entry.id, entry]));
    for (const { sourcedId, id } of await storedAliases(connection, kind)) {
      const target = records.get(id);
      if (target && !book.find(table, sourcedId)) book.alias(sourcedId, target);
    }
  }
}

/**
 * Writes the other names of records into the ledger (after the records themselves). A delta
 * loaded every stored other name of an assignment, less those it ended, so the book's list is the
 * whole list; an assignment handed to another enrolment is that enrolment's record from now on,
 * and no longer the ended one's.
 */
export async function recordOtherNames(context: ImportContext, connection: ImportConnection): Promise<void> {
  const { book } = context;
  const ids = (table: 'class_subjects' | 'teacher_assignments') =>
    book.aliasesOf(table).map(([sourcedId, entry]) => [sourcedId, entry.id] as const);
  // A class that was another's other name and is a class of its own now (placed apart by a delta),
  // or that the delta deletes, is no alias.
  if (context.mode === 'delta') {
    const own = new Set(book.entries('class_subjects').map((entry) => entry.sourcedId));
    for (const sourcedId of book.markedDeleted('class_subjects').keys()) own.add(sourcedId);
    const ended = (await storedAliases(connection, CLASS_ALIASES)).filter((alias) => own.has(alias.sourcedId));
    await forgetLedgerEntries(
      connection,
      CLASS_ALIASES,
      ended.map((alias) => alias.sourcedId),
    );
  }
  await recordAliases(connection, CLASS_ALIASES, context.mode === 'bulk', ids('class_subjects'));
  await recordAliases(connection, TEACHER_ASSIGNMENT_ALIASES, true, ids('teacher_assignments'));
  await forgetLedgerEntries(
    connection,
    'teacher_assignments',
    context.handOvers.map((handOver) => handOver.from),
  );
  await recordLedger(
    connection,
    context.handOvers.map((handOver) => ['teacher_assignments', handOver.heir, handOver.id, null] as const),
  );
}

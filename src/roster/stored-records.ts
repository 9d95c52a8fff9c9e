import type { ImportConnection } from '../store/roster/import-connection';
import { type loadLedger, storedClassAliases, storedRecords } from '../store/roster/ledger';
import { SCHOOL_TABLES } from '../store/roster/school-tables';
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
  // A second scheduled class of one subject in one section is the first: a delta naming it names that record.
  const classes = new Map(book.all('class_subjects').map((entry) => [entry.id, entry]));
  for (const { sourcedId, id } of await storedClassAliases(connection)) {
    const target = classes.get(id);
    if (target && !book.find('class_subjects', sourcedId)) book.alias(sourcedId, target);
  }
}

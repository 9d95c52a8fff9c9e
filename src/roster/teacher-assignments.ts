import type { ImportContext } from './import-context';
import type { Entry } from './roster-book';

/**
 * A teacher's assignment is one record per teacher, class section and subject, however many
 * enrolments say so (one per term in a class, or one in each of two scheduled classes of the
 * subject in the section): the first enrolment's record, the others other names of it (aliases,
 * kept in the ledger). The assignment stays while any of its enrolments does: a delta that ends
 * the first while another remains hands the record to that one (`handOvers`, for the ledger).
 *
 * `ended`: the enrolments the delta marks tobedeleted. `stored`: the sourcedIds of the
 * assignments the store held as records of their own before the delta. Two of them that teach one
 * thing (an older import's duplicates, or two a delta's classes now place in one section) are one
 * from this delta on, as a bulk import has them: the one given first keeps the record, the other
 * is deleted and becomes its other name.
 */
export function foldTeacherAssignments(
  context: ImportContext,
  ended: ReadonlySet<string>,
  stored: ReadonlySet<string>,
): void {
  const { book } = context;
  const table = 'teacher_assignments';
  // An ended name, or one the delta lists again (then placed anew below), is no other name any more.
  const listed = new Set(book.entries(table).map((entry) => entry.sourcedId));
  for (const [sourcedId] of book.aliasesOf(table)) {
    if (ended.has(sourcedId) || listed.has(sourcedId)) book.unalias(table, sourcedId);
  }
  for (const deletion of [...book.deletions(table)]) {
    const holders = book.aliasesOf(table).filter(([, target]) => target.id === deletion.id);
    if (holders.length === 0) continue;
    const [[heir, target], ...others] = holders;
    book.undelete(deletion);
    book.unalias(table, heir);
    book.preload(table, heir, deletion.id, target.row);
    const record = book.find(table, heir) as Entry;
    for (const [other] of others) book.alias(other, record);
    context.handOvers.push({ heir, id: deletion.id, from: deletion.sourcedId });
  }
  const first = new Map<string, Entry>();
  // The store's records first, in the order they were given (a bulk import's file order), so that
  // a new enrolment teaching what one of them does is another name of it.
  const ofStore = (entry: Entry) => entry.line === 0 || stored.has(entry.sourcedId);
  const givenAt = (entry: Entry) => (ofStore(entry) ? (book.storedId(table, entry.sourcedId) ?? entry.id) : 0);
  const ordered = [...book.all(table)].sort(
    (a, b) => Number(!ofStore(a)) - Number(!ofStore(b)) || givenAt(a) - givenAt(b),
  );
  for (const entry of ordered) {
    if (!entry.row) continue;
    const key = assignmentKey(entry);
    const found = first.get(key);
    if (!found) first.set(key, entry);
    else if (stored.has(entry.sourcedId)) oneOfTwoStored(context, entry, found);
    else if (entry.line > 0) {
      book.reject(entry);
      book.alias(entry.sourcedId, found);
    }
  }
}

/** A stored assignment teaching what one given before it does: deleted, it and its other names now the first's. */
function oneOfTwoStored(context: ImportContext, entry: Entry, kept: Entry): void {
  const { book } = context;
  const table = 'teacher_assignments';
  const id = book.storedId(table, entry.sourcedId);
  book.delete(table, entry.sourcedId, { file: entry.line > 0 ? entry.file : 'enrollments.csv', line: entry.line });
  for (const [sourcedId, target] of book.aliasesOf(table)) if (target.id === id) book.alias(sourcedId, kept);
  book.alias(entry.sourcedId, kept);
}

/** Teacher, class section and subject, by their ids (a record of this bundle not yet numbered: by its sourcedId). */
function assignmentKey(entry: Entry): string {
  const idOf = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return String(value);
    const record = value as Entry;
    return record.id !== 0 ? String(record.id) : `${record.table} ${record.sourcedId}`;
  };
  const row = entry.row ?? {};
  return [row.teacher_id, row.class_id, row.subject_id].map(idOf).join(' ');
}

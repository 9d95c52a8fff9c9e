import type { ImportConnection } from '../store/roster/import-connection';
import { keptRowsNaming } from '../store/roster/kept-fields';
import { FieldReader } from './fields';
import type { ImportContext } from './import-context';

/**
 * A delta that deletes a user or a class without listing the enrolments that name it (or, for a
 * class, its line items) ends them too: a bulk import of the changed school has none of them. Each
 * is taken as if its row said tobedeleted, at the row of the user or class: its record goes (a
 * teacher's assignment, unless another enrolment still holds it; a line item with its marks), a
 * scheduled class loses the pupil (placed again, see PupilsTakenOut), and its kept fields go, so
 * that an export no longer gives it back (as do a deleted pupil's demographics row's, and those of
 * the marks such deletions take with them: see writeStagedMarkFields).
 */

/** Where each deleted record of these files' rows is, by sourcedId. */
function deletedRows(context: ImportContext): { users: Map<string, number>; classes: Map<string, number> } {
  // A users.csv row marks every user table deleted; a demographics.csv row marks the students alone.
  return { users: context.book.markedDeleted('teachers'), classes: context.book.markedDeleted('classes') };
}

/**
 * Ends the stored enrolments naming a user or class this delta deletes, but those it lists itself
 * (`listed`, `ended`); adds their sourcedIds to `ended`. A delta without enrollments.csv is given
 * a reader of it, at whose rows (the lines of the deleting rows) the classes are placed again.
 */
export async function endEnrolmentsOfDeleted(
  context: ImportContext,
  connection: ImportConnection,
  listed: ReadonlySet<string>,
  ended: Set<string>,
): Promise<void> {
  if (context.mode !== 'delta') return;
  const { users, classes } = deletedRows(context);
  if (users.size === 0 && classes.size === 0) return;
  // A pupil's demographics row is of the pupil: it goes with them.
  for (const user of users.keys()) context.kept.forget('demographics.csv', user);
  const rows = await keptRowsNaming(connection, 'enrollments.csv', 'userSourcedId', [...users.keys()]);
  for (const [sourcedId, row] of await keptRowsNaming(connection, 'enrollments.csv', 'classSourcedId', [
    ...classes.keys(),
  ]))
    rows.set(sourcedId, row);
  for (const [sourcedId, row] of rows) {
    if (listed.has(sourcedId) || ended.has(sourcedId)) continue;
    const user = users.get(row.userSourcedId);
    const where =
      user === undefined
        ? { file: 'classes.csv', line: classes.get(row.classSourcedId) ?? 0 }
        : { file: 'users.csv', line: user };
    for (const table of ['student_records', 'teacher_assignments'] as const)
      context.book.delete(table, sourcedId, where);
    context.kept.forget('enrollments.csv', sourcedId);
    ended.add(sourcedId);
  }
  // The scheduled classes a deleted pupil leaves are placed again from the rows of this file.
  if (rows.size > 0 && !context.readers.has('enrollments.csv'))
    context.readers.set('enrollments.csv', new FieldReader('enrollments.csv', new Map(), context.problems));
}

/** Ends the stored line items of a class this delta deletes, but those it lists itself, with their marks. */
export async function endLineItemsOfDeleted(context: ImportContext, connection: ImportConnection): Promise<void> {
  if (context.mode !== 'delta') return;
  const { classes } = deletedRows(context);
  if (classes.size === 0) return;
  const listed = new Set(context.book.entries('assessments').map((entry) => entry.sourcedId));
  const marked = context.book.markedDeleted('assessments');
  const rows = await keptRowsNaming(connection, 'lineItems.csv', 'classSourcedId', [...classes.keys()]);
  for (const [sourcedId, row] of rows) {
    if (listed.has(sourcedId) || marked.has(sourcedId)) continue;
    context.book.delete('assessments', sourcedId, { file: 'classes.csv', line: classes.get(row.classSourcedId) ?? 0 });
    context.kept.forget('lineItems.csv', sourcedId);
  }
}

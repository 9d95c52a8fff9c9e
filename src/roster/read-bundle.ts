import type { ImportConnection } from '../store/roster/import-connection';
import type { BundleReading } from './bundle-reading';
import { lineItems } from './collections/line-items';
import { bundleFile, IMPORT_ORDER } from './collections/registry';
import { endLineItemsOfDeleted } from './delta-ended-rows';
import type { ImportContext } from './import-context';
import { readOwnFile } from './own-files';
import type { Entry, RosterBook } from './roster-book';

/** Reads the bundle's files in the registry's order (`IMPORT_ORDER`): what a row names is read before it. */
export async function readBundle(
  context: ImportContext,
  connection: ImportConnection,
  highestMarkId: number,
  skipInvalid: boolean,
): Promise<void> {
  let records: ReturnType<typeof recordFinder> | undefined;
  const recordOf = (studentId: number, classId: number) => {
    // Found once, at the first row that asks: the enrolment records are whole once enrollments.csv is read.
    records ??= recordFinder(context.book);
    return records(studentId, classId);
  };
  const reading: BundleReading = {
    context,
    connection,
    highestMarkId,
    skipInvalid,
    classes: { pending: new Map(), homeroomCourses: new Map() },
    roles: undefined,
    scales: new Map(),
    scaleOf: new Map(),
    recordOf,
  };
  for (const collection of IMPORT_ORDER) {
    const file = bundleFile(collection);
    if ('import' in collection) await collection.import.read(reading, file);
    else await readOwnFile(reading, collection, file);
    // A delta's deleted classes take their line items the delta does not list (a bulk import has none).
    if (collection === lineItems) await endLineItemsOfDeleted(context, connection);
    // Several schools in the bundle and none chosen (orgs.csv): nothing further is read.
    if (context.school.needed) return;
  }
}

/**
 * A student's enrolment record in a class section, by their ids; else, for a student enrolled
 * with no class section, their record in that class's year.
 */
function recordFinder(book: RosterBook): (studentId: number, classId: number) => number | undefined {
  const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));
  const records = new Map<string, number>();
  for (const record of book.all('student_records')) {
    const section = record.row?.class_id;
    const key =
      section === undefined || section === null ? `year ${idOf(record.row?.academic_year_id)}` : idOf(section);
    records.set(`${idOf(record.row?.student_id)} ${key}`, record.id);
  }
  const yearOfClass = new Map(book.all('classes').map((entry) => [entry.id, idOf(entry.row?.academic_year_id)]));
  return (studentId, classId) =>
    records.get(`${studentId} ${classId}`) ?? records.get(`${studentId} year ${yearOfClass.get(classId)}`);
}

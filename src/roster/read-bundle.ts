import type { ImportConnection } from '../store/roster/import-connection';
import {
  assignMarkIds,
  createMarkStaging,
  dropUnchangedMarks,
  duplicateMarks,
  stageMarks,
} from '../store/roster/staged-marks';
import { readAcademicSessions, readOrgs } from './calendar-files';
import { readClasses, readCourses, readGradeLevels } from './class-files';
import { endLineItemsOfDeleted } from './delta-ended-rows';
import { readEnrollments } from './enrollment-file';
import { readCategories, readLineItems, readResults } from './gradebook-files';
import type { ImportContext } from './import-context';
import { readOwnFiles } from './own-files';
import { readRoles } from './roles-file';
import type { Entry, RosterBook } from './roster-book';
import { readScoreScales } from './score-scales';
import { readDemographics, readUsers } from './user-files';

/** The files in the order their references need: what a row names is read before it. */
export async function readBundle(
  context: ImportContext,
  connection: ImportConnection,
  highestMarkId: number,
  skipInvalid: boolean,
): Promise<void> {
  await readOrgs(context);
  if (context.school.needed) return;
  await readAcademicSessions(context);
  await readGradeLevels(context);
  await readCourses(context);
  const classes = await readClasses(context);
  await readUsers(context, context.version === '1.2' ? await readRoles(context) : undefined);
  await readDemographics(context);
  await readEnrollments(context, classes, connection);
  await readCategories(context);
  const scales = await readScoreScales(context);
  const scaleOf = await readLineItems(context, scales);
  await endLineItemsOfDeleted(context, connection);
  const recordOf = recordFinder(context.book);
  await readOwnFiles(context, recordOf);
  await createMarkStaging(connection);
  await readResults(context, recordOf, (marks) => stageMarks(connection, marks), scaleOf, scales);
  const reader = context.readers.get('results.csv');
  if (!reader) return;
  for (const duplicate of await duplicateMarks(connection, skipInvalid)) {
    reader.failAt(
      duplicate.line,
      'sourcedId',
      'duplicate-sourcedId',
      `sourcedId "${duplicate.sourcedId}" is already on line ${duplicate.firstLine} of results.csv`,
    );
  }
  for (const clash of await assignMarkIds(connection, highestMarkId, skipInvalid)) {
    reader.failAt(
      clash.line,
      'metadata.contractId',
      'id-clash',
      `id ${clash.id} is asked for by results.csv:${clash.line} and results.csv:${clash.firstLine}`,
    );
  }
  if (context.mode === 'delta') await dropUnchangedMarks(connection);
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

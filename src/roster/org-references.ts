import type { SchoolTableName } from '../store/roster/school-tables';
import type { FieldReader } from './fields';
import type { ImportContext } from './import-context';

/**
 * The orgs a row names (courses, classes, users, enrolments, roles and score scales name theirs):
 * whether the row is another school's, and whether each org it names is one the bundle knows.
 */

/**
 * With a school chosen among several (--school): whether the row belongs to another one (its
 * `column` names orgs of type school, none the chosen one). Such a row is left out, unlisted, and
 * rows naming its record with it; a row naming no school (a district's course) is kept.
 */
export function ofOtherSchool(
  context: ImportContext,
  reader: FieldReader,
  column: string,
  tables: readonly SchoolTableName[],
  sourcedId: string,
): boolean {
  const { chosen, candidates, leftOut } = context.school;
  // A row naming the chosen school is its own, whatever else it names (a teacher of two schools).
  if (chosen === undefined || reader.list(column).includes(chosen)) return false;
  // A delta's orgs.csv holds only the orgs that changed: an org neither it nor the store knows is another school.
  const unknownInDelta = (org: string) =>
    context.mode === 'delta' && !context.orgs.has(org) && !context.book.find('schools', org);
  const schools = reader
    .list(column)
    .filter((org) => candidates.some((found) => found.sourcedId === org) || unknownInDelta(org));
  if (schools.length === 0 || schools.includes(chosen)) return false;
  leftOut.skipped += 1;
  for (const table of tables) {
    context.book.markInvalid(table, sourcedId, { file: reader.file, line: reader.line, quietlyInvalid: leftOut });
  }
  return true;
}

/**
 * An org reference must name an org of the bundle (or, in a delta, the store's school). A delta of
 * one school of several (--school) brings only the orgs that changed: an org it does not bring and
 * the store does not hold is another school's, as ofOtherSchool has it.
 */
export function checkOrg(context: ImportContext, reader: FieldReader, column: string): void {
  const otherSchoolsUnknown = context.mode === 'delta' && context.school.chosen !== undefined;
  for (const sourcedId of reader.list(column)) {
    if (context.orgs.has(sourcedId) || context.book.find('schools', sourcedId) || otherSchoolsUnknown) continue;
    if (context.book.isBroken('schools')) {
      context.book.resolve(reader, column, ['schools'], sourcedId, 'org');
      return;
    }
    reader.fail(column, 'unknown-reference', `${column} "${sourcedId}" names no org in the bundle`);
  }
}

import { requiredColumns } from './oneroster-columns';
import type { SchoolTableName } from '../store/roster/school-tables';
import type { FieldReader } from './fields';
import { standardGradeLevel } from './grade-levels';
import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';
import { gradeLevels } from './collections/grade-levels';

/**
 * gradeLevels.csv (the service's own, optional) -> grade levels; courses.csv -> subjects;
 * classes.csv -> the school's classes. A homeroom class is a class section (ClassID): its grade
 * level from `grades`, its section from classCode. A scheduled class is a subject taken by a
 * class section: its section is metadata.homeroomSourcedId, or else the one homeroom its students
 * are enrolled in, found once enrollments are read (resolveScheduledClasses).
 */

export async function readGradeLevels(context: ImportContext): Promise<void> {
  await forEachRow<string>(context, 'gradeLevels.csv', gradeLevels.required, (reader) => {
    const start = rowStart(context, reader, 'grade_levels', 'contractId');
    if (!start) return;
    const name = reader.required('name') ?? '';
    const ordinal = reader.integer('ordinal', true, { min: -100, max: 100 });
    takeRow(
      context,
      reader,
      'grade_levels',
      start,
      { ordinal, name_ar: name, name_en: reader.text('nameEn') || name },
      undefined,
      'contractId',
    );
  });
}

export async function readCourses(context: ImportContext): Promise<void> {
  await forEachRow(context, 'courses.csv', requiredColumns('courses', context.version), (reader) => {
    const start = rowStart(context, reader, 'subjects', 'metadata.contractId');
    if (!start || ofOtherSchool(context, reader, 'orgSourcedId', ['subjects'], start.sourcedId)) return;
    const title = reader.required('title') ?? '';
    checkOrg(context, reader, 'orgSourcedId');
    takeRow(context, reader, 'subjects', start, {
      code: reader.text('courseCode'),
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
  });
  assignIds(context, 'subjects');
}

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

/**
 * The scheduled classes waiting for their class section, with the row each came from and what of
 * it may tell the section: the homeroom it names, its classCode, its first grade and its year.
 */
export interface PendingSection {
  readonly line: number;
  readonly homeroom: string;
  readonly code: string;
  readonly grade: string;
  readonly title: string;
  readonly year: Entry | undefined;
  /** In a delta, the id of the class section the store teaches the class to (see sectionOfClass). */
  readonly storedSection?: number;
  /** The file `line` is of, when not classes.csv: a delta's enrolment that has a stored class placed again. */
  readonly reader?: FieldReader;
  /**
   * A delta's other name of a stored class, placed apart from it (see PupilsTakenOut): a class of
   * its own only if its section differs, whatever id the ledger once gave it.
   */
  readonly anotherName?: boolean;
}
export type PendingSections = Map<Entry, PendingSection>;

/**
 * The classes read: the scheduled ones waiting for their section, and the course of each homeroom
 * (the subject a teacher enrolled in the homeroom teaches it, so that the teacher has that group).
 */
export interface ClassesRead {
  readonly pending: PendingSections;
  readonly homeroomCourses: ReadonlyMap<Entry, Entry>;
}

export async function readClasses(context: ImportContext): Promise<ClassesRead> {
  const pending: PendingSections = new Map();
  const homeroomCourses = new Map<Entry, Entry>();
  const { book } = context;
  await forEachRow(context, 'classes.csv', requiredColumns('classes', context.version), (reader) => {
    const start = rowStart(context, reader, ['classes', 'class_subjects'], 'metadata.contractId');
    const tables = ['classes', 'class_subjects'] as const;
    if (!start || ofOtherSchool(context, reader, 'schoolSourcedId', tables, start.sourcedId)) return;
    const type = reader.oneOf('classType', ['homeroom', 'scheduled'], true);
    const title = reader.required('title') ?? '';
    const course = reader.required('courseSourcedId');
    const subject = course && book.resolve(reader, 'courseSourcedId', ['subjects'], course, 'course');
    checkOrg(context, reader, 'schoolSourcedId');
    const terms = reader.list('termSourcedIds');
    if (terms.length === 0) reader.fail('termSourcedIds', 'missing-value', 'termSourcedIds is required');
    const session =
      terms[0] && book.resolve(reader, 'termSourcedIds', ['academic_years', 'terms'], terms[0], 'session');
    const year = session && (session.table === 'terms' ? (session.row?.academic_year_id as Entry) : session);
    if (type === 'scheduled') {
      const stored = book.find('class_subjects', start.sourcedId);
      const storedSection = stored?.file === '(store)' ? Number(stored.row?.class_id) : undefined;
      const entry = takeRow(context, reader, 'class_subjects', start, { class_id: undefined, subject_id: subject });
      if (entry) {
        pending.set(entry, {
          storedSection,
          line: reader.line,
          homeroom: reader.raw('metadata.homeroomSourcedId'),
          code: reader.raw('classCode'),
          grade: reader.list('grades')[0] ?? '',
          title,
          year: year || undefined,
        });
      }
      return;
    }
    const grade = gradeLevelOf(context, reader);
    const homeroom = takeRow(context, reader, 'classes', start, {
      academic_year_id: year,
      grade_level_id: grade,
      section: reader.text('classCode') || title,
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
    if (homeroom && subject) homeroomCourses.set(homeroom, subject);
  });
  assignIds(context, 'grade_levels');
  assignIds(context, 'classes');
  return { pending, homeroomCourses };
}

/**
 * The grade level a homeroom's first grade names: from gradeLevels.csv, else a standard grade's own
 * names. A class without grades is of an unknown grade level: CEDS's Ungraded (a warning).
 */
function gradeLevelOf(context: ImportContext, reader: FieldReader): Entry | undefined {
  const code = reader.list('grades')[0];
  if (code === undefined) {
    reader.warn('grades', 'grade-unknown', 'the class has no grades: its grade level is UG (Ungraded)');
    return gradeLevelByCode(context, reader, 'UG');
  }
  return gradeLevelByCode(context, reader, code);
}

/** The grade level of a grade code (gradeLevels.csv's, else the standard one), taken into the book at its first use. */
export function gradeLevelByCode(context: ImportContext, reader: FieldReader, code: string): Entry | undefined {
  const known = context.book.find('grade_levels', code);
  if (known) return known;
  const standard = standardGradeLevel(code);
  if (!standard) {
    return reader.fail('grades', 'unknown-value', `grade "${code}" is no CEDS grade and not in gradeLevels.csv`);
  }
  const found = context.book.find('grade_levels', standard.code);
  if (found) return found;
  return context.book.accept('grade_levels', reader, {
    sourcedId: standard.code,
    row: { ordinal: standard.ordinal, name_ar: standard.nameAr, name_en: standard.nameEn },
    modifiedAt: undefined,
  });
}

import type { FieldReader } from './fields';
import { standardGradeLevel } from './grade-levels';
import type { ImportContext } from './import-context';
import type { Entry } from './roster-book';

/**
 * What classes.csv's reader (collections/classes.ts) leaves for enrollments.csv's and for the
 * class sections made of scheduled classes (class-sections.ts): the scheduled classes waiting for
 * their section, each homeroom's course, and the grade level of a grade code, which a class and a
 * class section made for a grade both take.
 */

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

import { absenceTypes } from './absence-types';
import { academicSessions } from './academic-sessions';
import { attendance } from './attendance';
import { categories } from './categories';
import { classes } from './classes';
import { classNotes } from './class-notes';
import { courses } from './courses';
import { demographics } from './demographics';
import { devices } from './devices';
import { enrollments } from './enrollments';
import { examSlots } from './exam-slots';
import { exams } from './exams';
import { gradeLevels } from './grade-levels';
import { lineItems } from './line-items';
import { noteTypes } from './note-types';
import { orgs } from './orgs';
import { results } from './results';
import { roles } from './roles';
import { scoreScales } from './score-scales';
import { studentNotes } from './student-notes';
import { users } from './users';

/**
 * Every file of a bundle, one module each, and the one list of their names. The OneRoster files
 * are in the order the import reads them (what a row names is read before it; results, the
 * largest, last): the SIS sync pulls them and the manifest lists them in that order.
 */
export const ONEROSTER_COLLECTIONS = [
  orgs,
  academicSessions,
  courses,
  classes,
  users,
  enrollments,
  demographics,
  categories,
  lineItems,
  results,
] as const;

/** The files only OneRoster 1.2 has that the import reads. */
export const ONEROSTER_12_COLLECTIONS = [roles, scoreScales] as const;

/** The service's own files, in the order the import reads and the export writes them. */
export const OWN_FILE_COLLECTIONS = [
  gradeLevels,
  absenceTypes,
  noteTypes,
  attendance,
  studentNotes,
  classNotes,
  exams,
  examSlots,
  devices,
] as const;

export type OneRosterCollectionName = (typeof ONEROSTER_COLLECTIONS)[number]['name'];
export type OneRoster12CollectionName = (typeof ONEROSTER_12_COLLECTIONS)[number]['name'];

/** The OneRoster 1.1 files the import reads, by name (`users`). */
export const ONEROSTER_FILES: readonly OneRosterCollectionName[] = ONEROSTER_COLLECTIONS.map(
  (collection) => collection.name,
);

/** The files only OneRoster 1.2 has that the import reads. */
export const V12_FILES: readonly OneRoster12CollectionName[] = ONEROSTER_12_COLLECTIONS.map(
  (collection) => collection.name,
);

/** Whether a file (`users`, without .csv) is a OneRoster file the import reads, of either version. */
export function isOneRosterFile(name: string): name is OneRosterCollectionName | OneRoster12CollectionName {
  return (ONEROSTER_FILES as readonly string[]).includes(name) || (V12_FILES as readonly string[]).includes(name);
}

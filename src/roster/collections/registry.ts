import type { SchoolTableName } from '../../store/roster/school-tables';
import type { ImportPart } from '../bundle-reading';
import type { BundleFile } from '../read-file';
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
 * are in the order the manifest lists them, the export writes them and the SIS sync pulls them
 * (what a row names comes before it; results, the largest, last).
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

/**
 * The tables a reading of the school's rows loads whole (school-rows.ts), made from what each
 * module's row source declares it reads (`export.reads.whole`). The OneRoster provider keeps what
 * it read from them until roster_versions moves, which triggers on these tables move: a table a
 * module starts to read is counted by a migration of its own (test/provider/copy-invalidation.test.ts
 * fails until one does).
 */
export const NAMED_TABLES: readonly SchoolTableName[] = [
  ...new Set(
    [...ONEROSTER_COLLECTIONS, ...OWN_FILE_COLLECTIONS].flatMap(
      (collection): readonly SchoolTableName[] => collection.export.reads.whole,
    ),
  ),
];

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

/**
 * Every file the import reads, in the order it reads them: what a row names is read before it.
 * gradeLevels.csv comes before the classes that name its levels, roles.csv before the users it
 * gives their roles, demographics.csv right after the users it completes, scoreScales.csv before
 * the lineItems that name them, the service's other own files once the enrolments they name are
 * read, and results, the largest, last.
 */
export const IMPORT_ORDER = [
  orgs,
  academicSessions,
  gradeLevels,
  courses,
  classes,
  roles,
  users,
  demographics,
  enrollments,
  categories,
  scoreScales,
  lineItems,
  // The other own files name the calendar, the classes and the enrolments.
  ...OWN_FILE_COLLECTIONS.filter((collection) => collection !== gradeLevels),
  results,
] as const;

export type ImportedCollection = (typeof IMPORT_ORDER)[number];

/** A collection as the import reads its file: a OneRoster file is declared by the manifest and kept for export. */
export function bundleFile(collection: ImportedCollection): BundleFile {
  if ('table' in collection) {
    const fills = 'import' in collection ? collection.import.fills : [collection.table];
    return { name: collection.name, oneRoster: false, keepsRows: false, fills };
  }
  const part: ImportPart = collection.import;
  return { name: collection.name, oneRoster: true, keepsRows: part.keptWhole !== false, fills: part.fills };
}

import { academicSessions } from './collections/academic-sessions';
import { categories } from './collections/categories';
import { classes } from './collections/classes';
import { courses } from './collections/courses';
import { demographics } from './collections/demographics';
import { enrollments } from './collections/enrollments';
import { lineItems } from './collections/line-items';
import { orgs } from './collections/orgs';
import {
  isOneRosterFile,
  ONEROSTER_12_COLLECTIONS,
  ONEROSTER_COLLECTIONS,
  type OneRoster12CollectionName,
  type OneRosterCollectionName,
} from './collections/registry';
import { results } from './collections/results';
import type { roles } from './collections/roles';
import type { scoreScales } from './collections/score-scales';
import { users } from './collections/users';

/**
 * The columns of OneRoster CSV files, in the binding's order, for every side that writes or reads
 * them: the import's readers (the columns a header must have), the export, the 1.2 export, the
 * REST sync's spooled bundle and the benchmark's generated bundle. A file's columns are named once,
 * in its collection's module (collections/); this file gathers them for the readers.
 */

export { ROLES_COLUMNS } from './collections/roles';
export { SCORE_SCALES_COLUMNS } from './collections/score-scales';

/**
 * The columns of each file of the OneRoster 1.1 CSV binding the import reads, in the binding's
 * order, as each collection's module (collections/) names them: the export writes them (with the
 * service's own metadata.* columns after them) and the REST sync writes each record it pulls as a
 * row of them, so that import, export and sync share one list.
 */
export const ONEROSTER_COLUMNS = {
  orgs: orgs.columns,
  academicSessions: academicSessions.columns,
  courses: courses.columns,
  classes: classes.columns,
  users: users.columns,
  enrollments: enrollments.columns,
  demographics: demographics.columns,
  categories: categories.columns,
  lineItems: lineItems.columns,
  results: results.columns,
} as const satisfies { readonly [File in OneRosterCollectionName]: readonly string[] };

export type OneRosterFile = keyof typeof ONEROSTER_COLUMNS;

export type ColumnOf<File extends OneRosterFile> = (typeof ONEROSTER_COLUMNS)[File][number];

/**
 * Some of a file's columns, in the order given, checked against the file's list (the service's own
 * `metadata.*` columns allowed): for a writer of a bundle that has only some of them.
 */
export function columnsOf<File extends OneRosterFile>(
  _file: File,
  columns: readonly (ColumnOf<File> | `metadata.${string}`)[],
): readonly string[] {
  return columns;
}

/** The columns 1.2 adds to files of 1.1, in the binding's order (OneRoster 1.2 CSV binding, each file's table). */
export const ONEROSTER_12_COLUMNS = {
  users: [
    'userMasterIdentifier',
    'resourceSourcedIds',
    'preferredGivenName',
    'preferredMiddleName',
    'preferredFamilyName',
    'primaryOrgSourcedId',
    'pronouns',
    'userProfileSourcedIds',
  ],
  categories: ['weight'],
  lineItems: ['gradingPeriodSourcedIds', 'academicSessionSourcedIds', 'scoreScaleSourcedId', 'learningObjectiveSet'],
  results: [
    'classSourcedId',
    'scoreScaleSourcedId',
    'textScore',
    'learningObjectiveSet',
    'inProgress',
    'incomplete',
    'late',
    'missing',
  ],
} as const satisfies { readonly [File in OneRosterFile]?: readonly string[] };

/** A column 1.2 adds to a file of 1.1. */
export type Column12<File extends keyof typeof ONEROSTER_12_COLUMNS> = (typeof ONEROSTER_12_COLUMNS)[File][number];

/**
 * Columns vendors write that the binding does not name, read as well: a lineItem's one session in
 * the singular (`academicSessionSourcedId`), a score scale's school as `schoolSourcedId`.
 */
const VENDOR_COLUMNS = {
  lineItems: ['academicSessionSourcedId'],
  scoreScales: ['schoolSourcedId'],
} as const;

/** The files a OneRoster bundle's import reads. */
export type ReadFile = OneRosterFile | OneRoster12CollectionName;

/**
 * The columns an import's reader of a file may ask for: the file's own (1.1 and 1.2), the vendors'
 * spellings above and the service's `metadata.*`.
 */
export type ReadColumn<File extends ReadFile> =
  | (File extends OneRosterFile ? ColumnOf<File> : never)
  | (File extends keyof typeof ONEROSTER_12_COLUMNS ? Column12<File> : never)
  | (File extends 'roles' ? (typeof roles.columns)[number] : never)
  | (File extends 'scoreScales' ? (typeof scoreScales.columns)[number] : never)
  | (File extends keyof typeof VENDOR_COLUMNS ? (typeof VENDOR_COLUMNS)[File][number] : never)
  | `metadata.${string}`;

/**
 * The columns the import requires of a file's header, for the bundle's OneRoster version; typed
 * as the columns the file's reader may ask for (forEachRow takes its readers' names from it).
 */
export function requiredColumns<File extends ReadFile>(
  file: File,
  version: '1.1' | '1.2',
): readonly ReadColumn<File>[] {
  const collection = collectionOf(file);
  if (!collection) return [];
  const required: readonly string[] = collection.required;
  const notRequired = 'notRequiredIn12' in collection ? collection.notRequiredIn12 : [];
  const dropped: readonly string[] = version === '1.2' ? notRequired : [];
  return required.filter((column) => !dropped.includes(column)) as ReadColumn<File>[];
}

function collectionOf(name: string) {
  return [...ONEROSTER_COLLECTIONS, ...ONEROSTER_12_COLLECTIONS].find((collection) => collection.name === name);
}

/** The columns a version requires of a file, by its name (`users.csv`); none for a file of the service's own. */
export function requiredColumnsOf(fileName: string, version: '1.1' | '1.2'): readonly string[] {
  const base = fileName.replace(/\.csv$/, '');
  return isOneRosterFile(base) ? requiredColumns(base, version) : [];
}

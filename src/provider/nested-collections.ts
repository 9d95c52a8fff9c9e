import type { ExportedSchool } from './exported-rows';
import { type RowReader, rowReader } from './rostering-collections';

/**
 * The nested collections of the rostering service (`/schools/{id}/classes`,
 * `/classes/{id}/students`, `/terms/{id}/gradingPeriods` ...): each narrows a collection by its
 * parent's sourcedId. Keyed `parent/child`, both named as in the paths.
 */
export type Narrowing = (school: ExportedSchool, parentId: string) => (row: RowReader) => boolean;

const listHolds = (list: string, id: string) => list.split(',').some((entry) => entry.trim() === id);

/** The sourcedIds of the users enrolled in a class (in a role), or of the classes a user is enrolled in. */
function enrolled(school: ExportedSchool, by: 'classSourcedId' | 'userSourcedId', id: string, role?: string) {
  const file = school.get('enrollments');
  const read = rowReader(file);
  const wanted = by === 'classSourcedId' ? 'userSourcedId' : 'classSourcedId';
  const found = new Set<string>();
  for (const values of file?.rows ?? []) {
    const row = read(values);
    if (row(by) === id && (role === undefined || row('role') === role)) found.add(row(wanted));
  }
  return found;
}

const field =
  (column: string): Narrowing =>
  (_school, id) =>
  (row) =>
    row(column) === id;
const inList =
  (column: string): Narrowing =>
  (_school, id) =>
  (row) =>
    listHolds(row(column), id);
const classesOf: Narrowing = (school, id) => {
  const classes = enrolled(school, 'userSourcedId', id);
  return (row) => classes.has(row('sourcedId'));
};
const membersOf =
  (role: string): Narrowing =>
  (school, id) => {
    const users = enrolled(school, 'classSourcedId', id, role);
    return (row) => users.has(row('sourcedId'));
  };

export const NESTED: Readonly<Record<string, Narrowing>> = {
  'schools/classes': field('schoolSourcedId'),
  'schools/courses': field('orgSourcedId'),
  'schools/enrollments': field('schoolSourcedId'),
  'schools/students': inList('orgSourcedIds'),
  'schools/teachers': inList('orgSourcedIds'),
  'schools/terms': () => () => true,
  'classes/students': membersOf('student'),
  'classes/teachers': membersOf('teacher'),
  'courses/classes': field('courseSourcedId'),
  'terms/classes': inList('termSourcedIds'),
  'terms/gradingPeriods': field('parentSourcedId'),
  'students/classes': classesOf,
  'teachers/classes': classesOf,
  'users/classes': classesOf,
};

/** The files a nested path's narrowing reads whole, beyond the collection it narrows. */
export const NESTED_READS: Readonly<Record<string, readonly string[]>> = {
  'classes/students': ['enrollments'],
  'classes/teachers': ['enrollments'],
  'students/classes': ['enrollments'],
  'teachers/classes': ['enrollments'],
  'users/classes': ['enrollments'],
};

import type { ExportedFile } from './exported-rows';

/**
 * The rostering service's collections (OneRoster 1.2 REST binding, rostering), each as a choice of
 * the rows of one exported file: `schools` are the orgs of type school, `terms` the academic
 * sessions of type term, `students` the users whose role is student, and so on. A nested
 * collection (`/classes/{id}/students`) is a collection narrowed by its parent record.
 */
export interface Collection {
  /** The exported file its records come from. */
  readonly file: string;
  /** The key of the answer's list (`orgs` for schools, `users` for students) and of a single record. */
  readonly plural: string;
  readonly singular: string;
  /** The scope a read needs (any one of them), by its last part. */
  readonly scopes: readonly string[];
  /** Which of the file's rows are of it; all when undefined. */
  readonly keeps?: (row: RowReader) => boolean;
  /** For users of one role (students, teachers): that role, which `keeps` chooses by. */
  readonly role?: string;
}

/** A row read by its column names. */
export type RowReader = (column: string) => string;

const CORE = ['roster-core.readonly', 'roster.readonly'];
const DEMOGRAPHICS = ['roster-demographics.readonly', 'roster.readonly'];
const GUARDIANS = ['parent', 'guardian', 'relative'];

const ofType = (type: string) => (row: RowReader) => row('type') === type;
/** The users of one role: a row's role must be exactly it. */
const ofRole = (role: string) => ({ role, keeps: (row: RowReader) => row('role') === role });

export const ROSTERING: Readonly<Record<string, Collection>> = {
  orgs: { file: 'orgs', plural: 'orgs', singular: 'org', scopes: CORE },
  schools: { file: 'orgs', plural: 'orgs', singular: 'org', scopes: CORE, keeps: ofType('school') },
  academicSessions: { file: 'academicSessions', plural: 'academicSessions', singular: 'academicSession', scopes: CORE },
  terms: {
    file: 'academicSessions',
    plural: 'academicSessions',
    singular: 'academicSession',
    scopes: CORE,
    keeps: ofType('term'),
  },
  gradingPeriods: {
    file: 'academicSessions',
    plural: 'academicSessions',
    singular: 'academicSession',
    scopes: CORE,
    keeps: ofType('gradingPeriod'),
  },
  courses: { file: 'courses', plural: 'courses', singular: 'course', scopes: CORE },
  classes: { file: 'classes', plural: 'classes', singular: 'class', scopes: CORE },
  users: { file: 'users', plural: 'users', singular: 'user', scopes: CORE },
  students: { file: 'users', plural: 'users', singular: 'user', scopes: CORE, ...ofRole('student') },
  teachers: { file: 'users', plural: 'users', singular: 'user', scopes: CORE, ...ofRole('teacher') },
  enrollments: { file: 'enrollments', plural: 'enrollments', singular: 'enrollment', scopes: CORE },
  demographics: { file: 'demographics', plural: 'demographics', singular: 'demographics', scopes: DEMOGRAPHICS },
};

/** The guardians' roles, for a guardian's scope. */
export const GUARDIAN_ROLES: readonly string[] = GUARDIANS;

/** A reader of the rows of `file`, by column name ('' for a column it lacks). */
export function rowReader(file: ExportedFile | undefined): (row: readonly string[]) => RowReader {
  const at = new Map((file?.columns ?? []).map((column, index) => [column, index]));
  return (row) => (column) => {
    const index = at.get(column);
    return index === undefined ? '' : (row[index] ?? '');
  };
}

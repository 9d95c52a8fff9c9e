import type { Scope } from '../access/scope';
import type { ExportedSchool } from './exported-rows';
import { GUARDIAN_ROLES, type RowReader, rowReader } from './rostering-collections';

/**
 * What a caller's scope lets its tokens read of the people and classes, as its SOAP calls may:
 * the school everything; a teacher themself, the classes they teach and those classes' students;
 * a guardian themself, their children and their children's classes; a student themself and their
 * classes. Orgs, sessions and courses name no one and are read whole. `undefined` is "all".
 */
export interface Visible {
  readonly users: ReadonlySet<string> | undefined;
  readonly classes: ReadonlySet<string> | undefined;
}

const EVERYTHING: Visible = { users: undefined, classes: undefined };

function readRows(school: ExportedSchool, file: string): RowReader[] {
  const found = school.get(file);
  const read = rowReader(found);
  return (found?.rows ?? []).map(read);
}

/** The user the scope is, by the store's id the export writes as metadata.contractId. */
function scopedUser(users: readonly RowReader[], roles: readonly string[], id: number): RowReader | undefined {
  return users.find((user) => roles.includes(user('role')) && user('metadata.contractId') === String(id));
}

/** The files a scope is decided by, read whole: none for the school's scope, which sees everything. */
export function readsForScope(scope: Scope): readonly string[] {
  return scope.kind === 'school' || scope.kind === 'none' ? [] : ['users', 'enrollments'];
}

export function visibleTo(scope: Scope, school: ExportedSchool): Visible {
  if (scope.kind === 'school') return EVERYTHING;
  if (scope.kind === 'none') return { users: new Set(), classes: new Set() };
  const users = readRows(school, 'users');
  const enrollments = readRows(school, 'enrollments');
  const roles = scope.kind === 'guardian' ? GUARDIAN_ROLES : [scope.kind];
  const self = scopedUser(users, roles, scope.id);
  if (!self) return { users: new Set(), classes: new Set() };
  const selfId = self('sourcedId');
  let people = [selfId];
  if (scope.kind === 'guardian') {
    const children = users.filter((user) => user('agentSourcedIds').split(',').includes(selfId));
    people = [selfId, ...children.map((child) => child('sourcedId'))];
  }
  const learners = scope.kind === 'guardian' ? people.slice(1) : people;
  const classes = new Set(
    enrollments.filter((row) => learners.includes(row('userSourcedId'))).map((row) => row('classSourcedId')),
  );
  const visibleUsers = new Set(people);
  if (scope.kind === 'teacher') {
    for (const row of enrollments) if (classes.has(row('classSourcedId'))) visibleUsers.add(row('userSourcedId'));
  }
  return { users: visibleUsers, classes };
}

/** Whether a row of `file` is visible: a person's by the user, a class's by the class, an enrolment by both. */
export function rowVisible(file: string, visible: Visible, row: RowReader): boolean {
  const { users, classes } = visible;
  switch (file) {
    case 'users':
    case 'demographics':
      return users === undefined || users.has(row('sourcedId'));
    case 'classes':
      return classes === undefined || classes.has(row('sourcedId'));
    case 'lineItems':
      return classes === undefined || classes.has(row('classSourcedId'));
    case 'results':
      return users === undefined || users.has(row('studentSourcedId'));
    case 'enrollments':
      return (
        (classes === undefined || classes.has(row('classSourcedId'))) &&
        (users === undefined || users.has(row('userSourcedId')))
      );
    default:
      return true;
  }
}

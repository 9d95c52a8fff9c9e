import type { OneRoster12Collection } from './collection';
import { date, isObject, type Json, ref, type Row, text } from './rest-cells';

/**
 * roles.csv (OneRoster 1.2 CSV binding, the roles.csv table): a user's roles per org (import:
 * roles-file.ts, readRoles).
 */
export const ROLES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'userSourcedId',
  'roleType',
  'role',
  'beginDate',
  'endDate',
  'orgSourcedId',
  'userProfileSourcedId',
] as const;

type Column = (typeof ROLES_COLUMNS)[number];

export const roles = {
  name: 'roles',
  columns: ROLES_COLUMNS,
  required: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
} as const satisfies OneRoster12Collection<'roles', Column>;

/** The rows of roles.csv of a 1.2 REST user: one row a role. */
export function rolesFromRest(record: Json): Row[] {
  const userRoles = Array.isArray(record.roles) ? record.roles.filter(isObject) : [];
  const user = text(record.sourcedId);
  return userRoles.map(
    (role, index) =>
      ({
        sourcedId: `${user}-role-${index + 1}`,
        status: text(record.status),
        dateLastModified: text(record.dateLastModified),
        userSourcedId: user,
        roleType: text(role.roleType),
        role: text(role.role),
        beginDate: date(role.beginDate),
        endDate: date(role.endDate),
        orgSourcedId: ref(role.org),
        userProfileSourcedId: text(role.userProfile),
      }) satisfies Record<Column, string>,
  );
}

import type { BundleReading } from '../bundle-reading';
import { checkOrg } from '../org-references';
import { type BundleFile, forEachRow, rowStart } from '../read-file';
import { type MetadataColumn, type OneRoster12Collection, requiredIn } from './collection';
import { date, isObject, type Json, ref, type Row, text } from './rest-cells';

/**
 * roles.csv (OneRoster 1.2 CSV binding, the roles.csv table): a user's roles per org, each
 * `primary` or `secondary`. In 1.2 users.csv has no `role` and no `orgSourcedIds`; a user's role
 * is their primary role (else their first), and their orgs are every org they have a role in,
 * with users.csv's `primaryOrgSourcedId` (users.ts). Read in a 1.2 bundle alone.
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

async function readRoles(reading: BundleReading, file: BundleFile): Promise<void> {
  const { context } = reading;
  if (context.version !== '1.2') return;
  const found = new Map<string, { primary?: string; first: string; orgs: string[] }>();
  await forEachRow<Column | MetadataColumn>(context, file, requiredIn(roles, context.version), (reader) => {
    const start = rowStart(context, reader, [], 'metadata.contractId');
    if (!start) return;
    const user = reader.required('userSourcedId');
    const type = reader.oneOf('roleType', ['primary', 'secondary'], true);
    const role = reader.required('role');
    const org = reader.required('orgSourcedId');
    reader.date('beginDate', false);
    reader.date('endDate', false);
    checkOrg(context, reader, 'orgSourcedId');
    if (!reader.ok || !user || !role || !org) return;
    const held = found.get(user) ?? { first: role, orgs: [] };
    if (type === 'primary') held.primary ??= role;
    if (!held.orgs.includes(org)) held.orgs.push(org);
    found.set(user, held);
  });
  reading.roles = new Map(
    [...found].map(([user, held]) => [user, { role: held.primary ?? held.first, orgs: held.orgs }]),
  );
}

export const roles = {
  name: 'roles',
  columns: ROLES_COLUMNS,
  required: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
  import: { fills: [], read: readRoles },
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

import { requiredColumns } from './oneroster-columns';
import { checkOrg } from './class-files';
import type { ImportContext } from './import-context';
import { forEachRow, rowStart } from './read-file';

/**
 * roles.csv (OneRoster 1.2 CSV binding, the roles.csv table): a user's roles per org, each
 * `primary` or `secondary`. In 1.2 users.csv has no `role` and no `orgSourcedIds`; a user's role
 * is their primary role (else their first), and their orgs are every org they have a role in,
 * with users.csv's `primaryOrgSourcedId`.
 */
export interface UserRoles {
  readonly role: string;
  readonly orgs: readonly string[];
}

export async function readRoles(context: ImportContext): Promise<Map<string, UserRoles>> {
  const found = new Map<string, { primary?: string; first: string; orgs: string[] }>();
  await forEachRow(context, 'roles.csv', requiredColumns('roles', context.version), (reader) => {
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
    const roles = found.get(user) ?? { first: role, orgs: [] };
    if (type === 'primary') roles.primary ??= role;
    if (!roles.orgs.includes(org)) roles.orgs.push(org);
    found.set(user, roles);
  });
  return new Map([...found].map(([user, roles]) => [user, { role: roles.primary ?? roles.first, orgs: roles.orgs }]));
}

import { ROLES_COLUMNS } from './oneroster-columns';
import type { BundleWriter } from './bundle-writer';

/**
 * Writes a bundle in the OneRoster 1.2 CSV binding's shape from the 1.1 rows the export makes: in
 * 1.2, users.csv has no `role` and no `orgSourcedIds` (binding, users.csv table) but a
 * `primaryOrgSourcedId`, and each user's role in each org is a row of roles.csv (binding,
 * roles.csv table): `primary` for the user's first org, `secondary` for the others. roles.csv is
 * written once users.csv is done (its rows held meanwhile, one per user and org), so that a zip's
 * entries never wait on each other. A bundle whose import brought a roles.csv gives that back
 * instead (see giving-back.ts).
 */
export function oneRoster12Writer(
  inner: BundleWriter,
  deriveRoles: boolean,
): BundleWriter & { readonly rolesWritten: () => number } {
  let rolesWritten = 0;
  return {
    rolesWritten: () => rolesWritten,
    file(name, header) {
      if (name !== 'users.csv') return inner.file(name, header);
      const at = (column: string) => header.findIndex((candidate) => candidate.toLowerCase() === column.toLowerCase());
      const role = at('role');
      const orgs = at('orgSourcedIds');
      const primary = at('primaryOrgSourcedId');
      const kept = header.map((_, index) => index).filter((index) => index !== role && index !== orgs);
      const file = inner.file(name, [
        ...kept.map((index) => header[index]),
        ...(primary < 0 ? ['primaryOrgSourcedId'] : []),
      ]);
      const roles: string[][] = [];
      return {
        row(values) {
          const user = String(values[0] ?? '');
          const userOrgs =
            orgs < 0
              ? []
              : String(values[orgs] ?? '')
                  .split(',')
                  .map((org) => org.trim())
                  .filter(Boolean);
          const first = primary >= 0 && values[primary] ? String(values[primary]) : (userOrgs[0] ?? '');
          const userRole = role < 0 ? '' : String(values[role] ?? '');
          if (deriveRoles && userRole !== '') {
            const ordered = [first, ...userOrgs.filter((org) => org !== first)].filter(Boolean);
            ordered.forEach((org, index) => {
              const row: Partial<Record<(typeof ROLES_COLUMNS)[number], string>> = {
                sourcedId: `role:${user}:${org}`,
                userSourcedId: user,
                roleType: index === 0 ? 'primary' : 'secondary',
                role: userRole,
                orgSourcedId: org,
              };
              roles.push(ROLES_COLUMNS.map((column) => row[column] ?? ''));
            });
          }
          return file.row([...kept.map((index) => values[index]), ...(primary < 0 ? [first] : [])]);
        },
        async end() {
          await file.end();
          if (roles.length === 0) return;
          const rolesFile = inner.file('roles.csv', ROLES_COLUMNS);
          for (const row of roles) await rolesFile.row(row);
          await rolesFile.end();
          rolesWritten = roles.length;
        },
      };
    },
    omit: (name) => inner.omit(name),
    close: () => inner.close(),
  };
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BundleRows, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A OneRoster 1.2 bundle: users.csv without role and orgSourcedIds, roles.csv with each user's
 * roles per org (primary and secondary). It gives the store the 1.1 bundle of the same school gives.
 */
function asOneRoster12(rows: BundleRows): BundleRows {
  const copy = structuredClone(rows);
  for (const row of copy.manifest) if (row.propertyName === 'oneroster.version') row.value = '1.2';
  copy.manifest.push({ propertyName: 'file.roles', value: 'bulk' });
  copy.roles = copy.users.flatMap((user) => [
    {
      sourcedId: `role-${user.sourcedId}`,
      status: '',
      dateLastModified: '',
      userSourcedId: user.sourcedId,
      roleType: 'primary',
      role: user.role,
      beginDate: '',
      endDate: '',
      orgSourcedId: user.orgSourcedIds,
      userProfileSourcedId: '',
    },
    // A secondary role is not the user's role: a teacher who is also an aide stays a teacher.
    ...(user.role === 'teacher'
      ? [
          {
            sourcedId: `role-${user.sourcedId}-2`,
            status: '',
            dateLastModified: '',
            userSourcedId: user.sourcedId,
            roleType: 'secondary',
            role: 'aide',
            beginDate: '',
            endDate: '',
            orgSourcedId: 'dist-1',
            userProfileSourcedId: '',
          },
        ]
      : []),
  ]);
  for (const user of copy.users) {
    const { role: _role, orgSourcedIds, ...rest } = user;
    Object.keys(user).forEach((key) => {
      delete user[key];
    });
    Object.assign(user, rest, {
      primaryOrgSourcedId: orgSourcedIds,
      preferredGivenName: '',
      userMasterIdentifier: '',
    });
  }
  return copy;
}

test('a 1.2 bundle with roles.csv gives the store the 1.1 bundle gives', async () => {
  const fresh = () => openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'oneroster-12-')) });
  const v11 = await fresh();
  const v12 = await fresh();
  try {
    expect(problemsOf(await importBundle(v11, writeBundle(smallSchool())))).toEqual([]);
    const bundle = asOneRoster12(smallSchool());
    expect(bundle.users[0]).not.toHaveProperty('role');
    expect(problemsOf(await importBundle(v12, writeBundle(bundle)))).toEqual([]);
    expect(await schoolRows(v12)).toEqual(await schoolRows(v11));
  } finally {
    await v11.close();
    await v12.close();
  }
});

test('a 1.2 user with no role in roles.csv is a problem at their row', async () => {
  const store = await openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'oneroster-12-')) });
  try {
    const bundle = asOneRoster12(smallSchool());
    bundle.roles = bundle.roles.filter((role) => role.userSourcedId !== 's3');
    const problems = problemsOf(await importBundle(store, writeBundle(bundle)));
    expect(problems[0]).toMatchObject({
      file: 'users.csv',
      line: 4,
      rule: 'missing-value',
      message: 'role is required',
    });
  } finally {
    await store.close();
  }
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { bundleRows, exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { TEST_SCHOOL } from '../support/stores';

/**
 * `export --oneroster 1.2` writes the 1.2 CSV binding: the manifest says 1.2, users.csv has no
 * role and no orgSourcedIds but a primaryOrgSourcedId, roles.csv gives each user's role per org;
 * the export imports back as the same school. The default stays 1.1.
 */
describeEachEngine('exporting OneRoster 1.2', (engine) => {
  const { fresh, exported } = exportingStores(engine);
  const importedBack = async (path: string) => {
    const store = await fresh();
    const outcome = await importBundle(store, path);
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    return store;
  };

  test('an imported 1.1 school exports as 1.2 and imports back as the same school', async () => {
    const first = await importedBack(writeBundle(smallSchool()));
    const path = await exported(first, '1.2');
    const manifest = readFileSync(join(path, 'manifest.csv'), 'utf8');
    expect(manifest).toContain('oneroster.version,1.2');
    expect(manifest).toContain('file.roles,bulk');
    const users = readFileSync(join(path, 'users.csv'), 'utf8').split('\r\n')[0].split(',');
    expect(users).toContain('primaryOrgSourcedId');
    expect(users).not.toContain('role');
    expect(users).not.toContain('orgSourcedIds');
    const roles = [...(bundleRows(path).get('roles.csv')?.values() ?? [])];
    const teacher = smallSchool().users.find((row) => row.role === 'teacher');
    expect(roles).toContainEqual(
      expect.objectContaining({
        userSourcedId: teacher?.sourcedId,
        role: 'teacher',
        roleType: 'primary',
        orgSourcedId: 'sch-1',
      }),
    );
    const second = await importedBack(path);
    expect(await schoolRows(second)).toEqual(await schoolRows(first));
    // ... and the 1.2 bundle exports as 1.2 again with the same roles (roles.csv given back).
    const again = bundleRows(await exported(second, '1.2'));
    expect([...(again.get('roles.csv')?.keys() ?? [])].sort()).toEqual(roles.map((row) => row.sourcedId).sort());
  });

  test('the demo school exports as 1.2 and imports back row for row; the default stays 1.1', async () => {
    const demo = await fresh();
    await loadDemoSchool(demo, { ...TEST_SCHOOL, students: 30 });
    const copy = await importedBack(await exported(demo, '1.2'));
    expect(await schoolRows(copy)).toEqual(await schoolRows(demo));
    const plain = await exported(demo);
    expect(readFileSync(join(plain, 'manifest.csv'), 'utf8')).toContain('oneroster.version,1.1');
    expect(bundleRows(plain).has('roles.csv')).toBe(false);
  });
});

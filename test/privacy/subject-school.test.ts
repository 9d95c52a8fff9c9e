import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { schoolStoreSettings } from '../../src/district/school-store-place';
import type { EngineSettings } from '../../src/store/engine-driver';
import { withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import {
  addUniqueChild,
  UNIQUE_CHILD,
  uniqueValues,
  vacuumAndCheckpoint,
  valuesInFiles,
  withoutWalRecycling,
} from '../support/privacy-subject';
import { TEST_SCHOOL } from '../support/stores';
import { runStoreCli } from '../support/subject-cli';

/**
 * `subject export` and `subject erase` with `--school`, in a deployment of several schools: the
 * person is found in that school's own store (its SQLite file, or its PostgreSQL schema) and erased
 * from it, no file under DATA_DIR (nor of the PostgreSQL cluster) holds their values afterwards, and
 * a sourcedId the deployment does not list is refused with nothing written.
 */

describeEachEngine('subject export and erase in a school of a district', (engine) => {
  let dataDirectory: string;
  let engineSettings: Record<string, string>;
  let north: EngineSettings;
  let childId: number;
  const settings = (): Record<string, string> => ({ ...engineSettings, DATA_DIR: dataDirectory, DEMO_DATA: 'off' });

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-privacy-'));
    engineSettings = engine.freshStoreSettings();
    delete engineSettings.DATA_DIR;
    expect((await runStoreCli(settings(), 'schools', 'add', 'org-north', '--path', '/north')).code).toBe(0);
    north = schoolStoreSettings({ databaseUrl: engineSettings.DATABASE_URL, dataDirectory }, 'org-north');
    childId = await withStoreAt(north, async (store) => {
      await loadDemoSchool(store, TEST_SCHOOL);
      await withoutWalRecycling(store);
      return addUniqueChild(store);
    });
  });
  afterAll(() => rmSync(dataDirectory, { recursive: true, force: true }));

  test('refuses a school the deployment does not list, writing nothing', async () => {
    const out = join(dataDirectory, 'nowhere');
    const refused = await runStoreCli(settings(), 'subject', 'export', '--school', 'org-x', '--student', '1', out);
    expect(refused).toEqual({ code: 2, output: expect.stringContaining('no school "org-x" in this deployment') });
    const erase = ['subject', 'erase', '--school', 'org-x', '--student', String(childId), '--reason', 'left'];
    expect((await runStoreCli(settings(), ...erase)).code).toBe(2);
    const both = ['subject', 'erase', '--school', 'org-north', '--student', String(childId), '--teacher', '1'];
    const refusedBoth = await runStoreCli(settings(), ...both, '--reason', 'left');
    expect(refusedBoth).toEqual({ code: 2, output: expect.stringContaining('name one person') });
    const kept = await withStoreAt(north, (store) =>
      store.db.selectFrom('students').select('id').where('id', '=', childId).execute(),
    );
    expect(kept).toEqual([{ id: childId }]);
  });

  test("exports the child from the school's store, then erases them from its files", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'school-subject-')), 'export');
    const id = String(childId);
    // The deployment's own store does not hold the child: only --school finds them.
    expect((await runStoreCli(settings(), 'subject', 'export', '--student', id, out)).code).toBe(2);
    const exported = await runStoreCli(settings(), 'subject', 'export', '--school', 'org-north', '--student', id, out);
    expect(exported).toEqual({ code: 0, output: expect.stringContaining('school: org-north (/north)') });
    expect(readFileSync(join(out, 'students.json'), 'utf8')).toContain(UNIQUE_CHILD.nameAr);
    const folders = [dataDirectory, ...engine.storeFolders()];
    expect(Object.keys(valuesInFiles(folders, uniqueValues())).length).toBeGreaterThan(0);

    const erase = ['subject', 'erase', '--school', 'org-north', '--student', id, '--reason', 'left'];
    const erased = await runStoreCli(settings(), ...erase);
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased student ${id}.`) });
    expect(erased.output).toContain(
      engine.engine === 'sqlite' ? 'store files: secure_delete, VACUUM, wal_checkpoint(TRUNCATE)' : 'VACUUM FULL',
    );
    if (engine.engine === 'postgres') await withStoreAt(north, vacuumAndCheckpoint);
    expect(valuesInFiles(folders, uniqueValues())).toEqual({});
    expect((await runStoreCli(settings(), ...erase)).code).toBe(2);
  });
});

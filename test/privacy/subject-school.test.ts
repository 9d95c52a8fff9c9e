import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schoolFolder } from '../../src/district/school-list';
import { addUniqueChild, UNIQUE_CHILD, uniqueValues, valuesInFiles } from '../support/privacy-subject';
import { openTestSchool, withTestStore } from '../support/stores';
import { runStoreCli } from '../support/subject-cli';

/**
 * `subject export` and `subject erase` with `--school`, in a deployment of several schools: the
 * person is found in that school's own store and erased from its files, the deployment's other
 * stores are not touched, and a sourcedId the deployment does not list is refused with nothing
 * written. Districts are served on SQLite only, so this suite runs there.
 */

describe('subject export and erase in a school of a district', () => {
  let dataDirectory: string;
  let childId: number;
  const settings = (): Record<string, string> => ({ DATA_DIR: dataDirectory, DEMO_DATA: 'off' });

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-privacy-'));
    expect((await runStoreCli(settings(), 'schools', 'add', 'org-north', '--path', '/north')).code).toBe(0);
    const store = await openTestSchool({ DATA_DIR: schoolFolder(dataDirectory, 'org-north') });
    try {
      childId = await addUniqueChild(store);
    } finally {
      await store.close();
    }
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
    const kept = await withTestStore({ DATA_DIR: schoolFolder(dataDirectory, 'org-north') }, (store) =>
      store.db.selectFrom('students').select('id').where('id', '=', childId).execute(),
    );
    expect(kept).toEqual([{ id: childId }]);
  });

  test("exports the child from the school's store, then erases them from its files", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'school-subject-')), 'export');
    const id = String(childId);
    expect((await runStoreCli(settings(), 'subject', 'export', '--student', id, out)).code).toBe(2);
    const exported = await runStoreCli(settings(), 'subject', 'export', '--school', 'org-north', '--student', id, out);
    expect(exported).toEqual({ code: 0, output: expect.stringContaining('school: org-north (/north)') });
    expect(readFileSync(join(out, 'students.json'), 'utf8')).toContain(UNIQUE_CHILD.nameAr);

    const erase = ['subject', 'erase', '--school', 'org-north', '--student', id, '--reason', 'left'];
    const erased = await runStoreCli(settings(), ...erase);
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased student ${id}.`) });
    expect(erased.output).toContain('store files: secure_delete, VACUUM, wal_checkpoint(TRUNCATE)');
    expect(valuesInFiles([dataDirectory], uniqueValues())).toEqual({});
    expect((await runStoreCli(settings(), ...erase)).code).toBe(2);
  });
});

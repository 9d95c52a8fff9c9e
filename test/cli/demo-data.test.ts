import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArguments, ROOT } from '../support/cli';
import { openTestStore } from '../support/stores';

/** school-service demo-data, run as an operator runs it, against a store of the test's own. */
describe('school-service demo-data', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-demo-data-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const demoData = (...args: string[]) =>
    spawnSync(process.execPath, cliArguments('demo-data', ...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '' },
      encoding: 'utf8',
    });

  const studentCount = async () => {
    const store = await openTestStore({ DATA_DIR: folder });
    try {
      const row = await store.db
        .selectFrom('students')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    } finally {
      await store.close();
    }
  };

  test('fills an empty store with a school of the size asked for', async () => {
    const run = demoData('--students', '30', '--seed', '3', '--year', '2026');
    expect([run.status, run.stderr.includes('Error')]).toEqual([0, false]);
    expect(run.stdout).toMatch(/30 students, .* \(seed 3, year 2026\/2027\)\.\n$/);
    expect(await studentCount()).toBe(30);
  });

  test('leaves a store that holds a school alone unless --replace is given (exit code 2)', async () => {
    const refused = demoData('--students', '40');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('already holds a school; pass --replace');
    expect(await studentCount()).toBe(30);
    const replaced = demoData('--students', '40', '--replace');
    expect(replaced.status).toBe(0);
    expect(await studentCount()).toBe(40);
  });

  test('refuses an option that is not a positive whole number (exit code 2)', () => {
    const run = demoData('--students', 'many');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("option '--students <count>' argument 'many' is invalid");
  });
});

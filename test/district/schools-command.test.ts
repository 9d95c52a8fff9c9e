import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { readSchools, schoolFolder } from '../../src/district/school-list';
import { runCommand } from '../support/cli';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { withTestStore } from '../support/stores';

/**
 * `school-service schools add|list|remove` and `--school` on import, export and callers, as the
 * operator runs them: each school is registered in DATA_DIR/schools with a store of its own there,
 * bad sourcedIds and paths are refused with exit code 2 and nothing written, and a school removed
 * is archived to BACKUP_DIR before its folder goes. On PostgreSQL: schools-postgres.test.ts.
 */

describe('the schools command', () => {
  let dataDirectory: string;
  let backupDirectory: string;

  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCommand({ DATA_DIR: dataDirectory, BACKUP_DIR: backupDirectory, ...env }, args);

  beforeAll(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-cli-'));
    backupDirectory = mkdtempSync(join(tmpdir(), 'school-district-backups-'));
  });
  afterAll(() => {
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(backupDirectory, { recursive: true, force: true });
  });

  it('lists no schools in a deployment of one school, and makes no folder for them', () => {
    const list = cli(['schools', 'list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain('No schools added');
    expect(existsSync(join(dataDirectory, 'schools'))).toBe(false);
  });

  it('adds schools, each with a store of its own, and lists them', () => {
    const added = cli(['schools', 'add', 'org-a', '--path', '/alpha', '--name', 'Alpha School']);
    expect(added.status).toBe(0);
    expect(existsSync(join(schoolFolder(dataDirectory, 'org-a'), 'school.sqlite'))).toBe(true);
    expect(cli(['schools', 'add', 'org-b', '--path', '/beta', '--host', 'beta.example.org']).status).toBe(0);
    const listed = JSON.parse(cli(['schools', 'list', '--json']).stdout);
    expect(listed).toEqual([
      { sourcedId: 'org-a', path: '/alpha', name: 'Alpha School' },
      { sourcedId: 'org-b', path: '/beta', host: 'beta.example.org' },
    ]);
  });

  it.each([
    [['../escape', '--path', '/escape'], 'sourcedId'],
    [['org-c', '--path', '/../x'], 'path'],
    [['org-c', '--path', '/beta'], 'two schools have the path /beta'],
    // The other checks of an entry: test/district/school-entry.test.ts.
  ])('refuses %j with exit code 2, writing nothing', (args, reason) => {
    const refused = cli(['schools', 'add', ...args]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(reason);
    expect(readSchools(dataDirectory).map((school) => school.sourcedId)).toEqual(['org-a', 'org-b']);
    expect(existsSync(schoolFolder(dataDirectory, 'org-c'))).toBe(false);
  });

  it('picks a school’s store with --school on callers', () => {
    expect(cli(['callers', 'add', 'app-a', '--secret', '--school', 'org-a']).status).toBe(0);
    const atA = JSON.parse(cli(['callers', 'list', '--json', '--school', 'org-a']).stdout) as { name: string }[];
    expect(atA.map((caller) => caller.name)).toEqual(['app-a']);
    const atB = JSON.parse(cli(['callers', 'list', '--json', '--school', 'org-b']).stdout) as { name: string }[];
    expect(atB).toEqual([]);
    const unknown = cli(['callers', 'list', '--school', 'org-x']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no school "org-x"');
  });

  it('picks a school’s store with --school on export and import', async () => {
    await withTestStore({ DATA_DIR: schoolFolder(dataDirectory, 'org-a'), OUTBOX_KEY: TEST_OUTBOX_KEY }, (store) =>
      loadDemoSchool(store, { students: 12, seed: 5, startYear: 2026 }),
    );
    const bundle = join(mkdtempSync(join(tmpdir(), 'school-district-bundle-')), 'export-a');
    try {
      expect(cli(['export', bundle, '--school', 'org-a']).status).toBe(0);
      const users = readFileSync(join(bundle, 'users.csv'), 'utf8').trim().split('\n');
      expect(users.filter((line) => line.includes(',student,')).length).toBe(12);
      await importsIntoTheSchoolOfItsOrg(bundle);
    } finally {
      rmSync(join(bundle, '..'), { recursive: true, force: true });
    }
  });

  /** The demo school's org is org-1: registered, `import --school org-1` loads it into that school's store alone. */
  async function importsIntoTheSchoolOfItsOrg(bundle: string): Promise<void> {
    expect(cli(['schools', 'add', 'org-1', '--path', '/copy']).status).toBe(0);
    const imported = cli(['import', bundle, '--school', 'org-1']);
    expect(imported.status).toBe(0);
    expect(imported.stderr).toContain(schoolFolder(dataDirectory, 'org-1'));
    const students = await withTestStore(
      { DATA_DIR: schoolFolder(dataDirectory, 'org-1'), OUTBOX_KEY: TEST_OUTBOX_KEY },
      (store) =>
        store.db
          .selectFrom('students')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
    );
    expect(Number(students.n)).toBe(12);
    // The deployment's own store was never made.
    expect(existsSync(join(dataDirectory, 'school.sqlite'))).toBe(false);
    expect(cli(['schools', 'remove', 'org-1', '--yes']).status).toBe(0);
    rmSync(backupDirectory, { recursive: true, force: true });
    mkdirSync(backupDirectory);
  }

  it('says what removing a school would take and exits 2 without --yes; with it, archives then deletes', () => {
    const folder = schoolFolder(dataDirectory, 'org-a');
    const dry = cli(['schools', 'remove', 'org-a']);
    expect(dry.status).toBe(2);
    expect(dry.stdout).toContain(`Would remove school org-a`);
    expect(dry.stdout).toContain(folder);
    expect(existsSync(folder)).toBe(true);
    expect(readdirSync(backupDirectory)).toEqual([]);

    const removed = cli(['schools', 'remove', 'org-a', '--yes']);
    expect(removed.status).toBe(0);
    expect(existsSync(folder)).toBe(false);
    expect(readSchools(dataDirectory).map((school) => school.sourcedId)).toEqual(['org-b']);
    const archives = readdirSync(backupDirectory);
    expect(archives).toHaveLength(1);
    expect(archives[0]).toMatch(/^school-org-a-\d{8}T\d{6}Z\.sqlite$/);
  });
});

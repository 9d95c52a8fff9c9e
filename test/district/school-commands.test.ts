import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { readSchools, schoolFolder } from '../../src/district/school-list';
import { cliArguments, ROOT, runCommand } from '../support/cli';
import { OneRosterProvider, PROVIDER_CLIENT, schoolOf, sisSchool } from '../support/oneroster-provider';
import { schoolRowsIn } from '../support/roster-import';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { withTestStore } from '../support/stores';

/**
 * `--school SOURCEDID` (or SCHOOL) on the store commands, and a school's own settings (`schools
 * set|unset`), as the operator runs them: each command acts on the named school's store alone (the
 * deployment's own store is never even made), with the school's own SIS and legacy settings and
 * none of the deployment's. Districts are served on SQLite (see schools-command.test.ts), so this
 * suite runs on SQLite.
 */

const SECRET = 'a-school-secret-5e1b7a90';

describe('--school on the store commands, and a school’s own settings', () => {
  let dataDirectory: string;
  let scratch: string;
  let provider: OneRosterProvider;

  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCommand({ DATA_DIR: dataDirectory, ...env }, args);
  const students = async (sourcedId: string) =>
    (await schoolRowsIn(schoolFolder(dataDirectory, sourcedId))).students.length;
  const ownStoreMade = () => existsSync(join(dataDirectory, 'school.sqlite'));

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-commands-'));
    scratch = mkdtempSync(join(tmpdir(), 'school-district-scratch-'));
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.1'));
    await provider.start();
    for (const [sourcedId, path] of [
      ['org-a', '/alpha'],
      ['org-b', '/beta'],
      ['org-c', '/gamma'],
      ['org-s', '/sis'],
    ]) {
      expect(cli(['schools', 'add', sourcedId, '--path', path]).status).toBe(0);
    }
    for (const [sourcedId, count] of [
      ['org-a', 12],
      ['org-b', 5],
    ] as const) {
      await withTestStore({ DATA_DIR: schoolFolder(dataDirectory, sourcedId), OUTBOX_KEY: TEST_OUTBOX_KEY }, (store) =>
        loadDemoSchool(store, { students: count, seed: 5, startYear: 2026 }),
      );
    }
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('backs up one school and restores it into another, the deployment’s store untouched', async () => {
    const backup = join(scratch, 'a.sqlite');
    const backedUp = cli(['backup', backup, '--school', 'org-a']);
    expect(backedUp.status).toBe(0);
    expect(backedUp.stderr).toContain(schoolFolder(dataDirectory, 'org-a'));
    const restored = cli(['restore', backup], { SCHOOL: 'org-c' });
    expect(restored.status).toBe(0);
    expect(await students('org-c')).toBe(12);
    expect(await students('org-b')).toBe(5);
    expect(ownStoreMade()).toBe(false);
  });

  it('copies, audits, reports and erases leavers of the school named alone', async () => {
    const copied = cli(['copy-store', '--school', 'org-b', '--to', `sqlite:${join(scratch, 'copy-b')}`]);
    expect(copied.status).toBe(0);
    expect((await schoolRowsIn(join(scratch, 'copy-b'))).students).toHaveLength(5);
    const audit = cli(['audit', '--caller', 'nobody', '--school', 'org-b']);
    expect(audit.status).toBe(0);
    expect(audit.stderr).toContain(schoolFolder(dataDirectory, 'org-b'));
    expect(audit.stdout).toContain('No audited calls match');
    const retention = cli(['retention', '--dry-run', '--school', 'org-a'], { RETENTION_AFTER_LEAVING_DAYS: '30' });
    expect(retention.status).toBe(0);
    expect(retention.stderr).toContain(schoolFolder(dataDirectory, 'org-a'));
    expect(cli(['shadow-report', '--json', '--school', 'org-a']).status).toBe(0);
    expect(ownStoreMade()).toBe(false);
  });

  it.each([
    ['audit', '--caller', 'x'],
    ['backup', 'nowhere.sqlite'],
    ['routes'],
    ['shadow-report'],
    ['retention'],
    ['export', 'nowhere'],
  ])('refuses %s at a school the deployment does not list, with exit code 2', (...args) => {
    const refused = cli([...args, '--school', 'org-x']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('no school "org-x"');
  });

  it('keeps a school’s own settings, its secret masked, and refuses a setting no school holds', () => {
    const set = cli(['schools', 'set', 'org-a', 'LEGACY_URL=http://127.0.0.1:9/legacy', `SIS_CLIENT_SECRET=${SECRET}`]);
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('Set LEGACY_URL, SIS_CLIENT_SECRET for school org-a');
    const listed = cli(['schools', 'list']);
    const json = cli(['schools', 'list', '--json']);
    for (const shown of [set, listed, json]) expect(`${shown.stdout}${shown.stderr}`).not.toContain(SECRET);
    expect(listed.stdout).toContain('SIS_CLIENT_SECRET=***');
    expect(JSON.parse(json.stdout)[0].settings).toEqual({
      LEGACY_URL: 'http://127.0.0.1:9/legacy',
      SIS_CLIENT_SECRET: '***',
    });
    // The list file holds it (readable by the service's user alone), for the service to use.
    expect(readFileSync(join(dataDirectory, 'schools', 'schools.json'), 'utf8')).toContain(SECRET);
    for (const refused of [['PORT=1'], ['SIS_PAGE_SIZE=0'], ['ROUTES=HelloWorld=nowhere'], ['SIS_URL']]) {
      const run = cli(['schools', 'set', 'org-b', ...refused]);
      expect(run.status).toBe(2);
      expect(readSchools(dataDirectory).find((school) => school.sourcedId === 'org-b')?.settings).toBeUndefined();
    }
  });

  it('routes prints the named school’s legacy service and routes, never the deployment’s', () => {
    const deployment = { LEGACY_URL: 'http://127.0.0.1:8/deployment', ROUTES: 'HelloWorld=legacy' };
    expect(cli(['schools', 'set', 'org-a', 'ROUTES=HelloWorld=shadow']).status).toBe(0);
    const atA = JSON.parse(cli(['routes', '--json', '--school', 'org-a'], deployment).stdout);
    expect(atA.legacyUrl).toBe('http://127.0.0.1:9/legacy');
    expect(atA.routes.HelloWorld).toBe('shadow');
    const atB = JSON.parse(cli(['routes', '--json'], { ...deployment, SCHOOL: 'org-b' }).stdout);
    expect(atB.legacyUrl).toBeNull();
    expect(atB.routes.HelloWorld).toBe('local');
    expect(cli(['schools', 'unset', 'org-a', 'ROUTES', 'LEGACY_URL']).status).toBe(0);
    const unset = JSON.parse(cli(['routes', '--json', '--school', 'org-a'], deployment).stdout);
    expect(unset.legacyUrl).toBeNull();
  });

  it('syncs a school from its own SIS into its store alone, the secret nowhere in what it prints', async () => {
    const settings = Object.entries(provider.settings('1.1')).map(([name, value]) => `${name}=${value}`);
    expect(cli(['schools', 'set', 'org-s', ...settings]).status).toBe(0);
    // The deployment's own SIS, which the school must not be synced from.
    const deployment = {
      SIS_URL: 'http://127.0.0.1:7/ims/oneroster/v1p1',
      SIS_CLIENT_ID: 'own',
      SIS_CLIENT_SECRET: 'own',
    };
    // Not spawnSync: the provider answers from this process.
    const synced = await promisify(execFile)(process.execPath, cliArguments('sync', '--school', 'org-s'), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: '', OUTBOX_KEY: TEST_OUTBOX_KEY, ...deployment },
      encoding: 'utf8',
    });
    expect(synced.stdout).toMatch(/^bulk sync: \d+ added/m);
    expect(`${synced.stdout}${synced.stderr}`).not.toContain(PROVIDER_CLIENT.secret);
    expect(await students('org-s')).toBe(3);
    expect(await students('org-b')).toBe(5);
    expect(ownStoreMade()).toBe(false);
  });
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeExists } from '../../src/store/store-presence';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { ProcessGroup, firstMatchingLine } from '../support/processes';
import { smallSchool, withoutColumn, writeBundle } from '../support/roster-bundle';
import { schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * What an operator's one-off command does with the settings and the store: a variable set for the
 * command wins over the settings file (and the command says which), a dry run makes no store, and
 * --skip-invalid says which problems it cannot leave out and why.
 */
describeEachEngine('one-off commands', (engine) => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-one-off-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  /** `school-service ARGS` with only these settings beside PATH (the engine's store settings among them). */
  const run = (settings: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', DEMO_DATA: 'off', ...settings },
      encoding: 'utf8',
    });
  /** The engine's store settings for a store that is not there yet (SQLite: a folder not made). */
  const absentStore = (name: string) =>
    engine.engine === 'sqlite' ? { DATA_DIR: join(folder, name) } : engine.freshStoreSettings();
  const toStoreSettings = (settings: Record<string, string>) => ({
    databaseUrl: settings.DATABASE_URL,
    dataDirectory: settings.DATA_DIR ?? join(folder, 'unused'),
  });

  test('import --dry-run writes nothing at all: no store, no data folder', async () => {
    const settings = absentStore('never-made');
    const dry = run(settings, 'import', writeBundle(smallSchool()), '--dry-run');
    expect([dry.status, dry.stdout]).toEqual([0, expect.stringContaining('bulk import would import (a dry run into')]);
    expect(dry.stderr).toContain('(not there: read as an empty store, none is made)');
    expect(await storeExists(toStoreSettings(settings))).toBe(false);
    if (settings.DATA_DIR) expect(existsSync(settings.DATA_DIR)).toBe(false);
  });

  test('--skip-invalid lists the problems it cannot leave out, with why', () => {
    const bundle = writeBundle(withoutColumn(smallSchool(), 'users', 'familyName'));
    const ran = run(absentStore('skip'), 'import', bundle, '--skip-invalid');
    expect(ran.status).toBe(2);
    const columns = Object.keys(smallSchool().users[0]).length;
    expect(ran.stdout).toContain(
      '--skip-invalid cannot leave out 1 problem (each stops the whole import):\n' +
        `  users.csv:1:${columns}: missing-column: the header lacks a column every row needs, ` +
        'so no row of the file can be read\n',
    );
  });

  test("a variable set for the command wins over --env's file, and the command says which", async () => {
    const inFile = absentStore('from-file');
    const forCommand = engine.freshStoreSettings();
    const file = join(folder, `school-service-${engine.engine}.env`);
    writeFileSync(
      file,
      `${Object.entries(inFile)
        .map(([name, value]) => `${name}=${value}`)
        .join('\n')}\n`,
    );
    const ran = run(forCommand, '--env', file, 'import', writeBundle(smallSchool()));
    expect(ran.status).toBe(0);
    expect(ran.stderr).toContain(`settings: ${file}, but ${Object.keys(forCommand).join(', ')} from the environment`);
    const store = await openTestStore(forCommand);
    try {
      expect((await schoolRows(store)).students).toHaveLength(3);
    } finally {
      await store.close();
    }
    expect(await storeExists(toStoreSettings(inFile))).toBe(false);
  });
});

describe('the service started with a settings file', () => {
  const processes = new ProcessGroup();
  afterAll(() => processes.stopAll());

  test('its start-up line names the file and the variables the environment set over it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'school-env-'));
    const file = join(folder, 'school-service.env');
    // Port 1 is refused to a service that is not root: only the environment's port lets it start.
    writeFileSync(file, `DATA_DIR=${folder}\nPORT=1\nHOST=127.0.0.1\nDEMO_DATA=off\nLOG_LEVEL=info\n`);
    const service = processes.spawn(process.execPath, ['--import', 'tsx', join('src', 'main.ts')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', SCHOOL_SERVICE_ENV: file, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const [line] = await firstMatchingLine(service, /^\{[^\n]*"listening"[^\n]*\}$/m, 60_000, 'the service', 'stderr');
    expect(JSON.parse(line)).toMatchObject({ settingsFile: file, overriddenByEnvironment: ['PORT'] });
  });
});

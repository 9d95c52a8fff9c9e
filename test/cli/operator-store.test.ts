import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config/service-config';
import type { RunningService } from '../../src/service';
import { keyFingerprint } from '../../src/lib/payload-sealer';
import { allCallers } from '../../src/store/queries/callers';
import { storeExists } from '../../src/store/store-presence';
import { REMOTE_TEST_SETTINGS, remoteCall, TEST_OUTBOX_KEY, usernameTokenHeader } from '../support/callers';
import { cliFromAnywhere } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { startTestService } from '../support/service';
import { openTestSchool, openTestStore } from '../support/stores';

/**
 * The operator's commands act on the service's own store with its own key, from whatever folder
 * they run in: the unit's settings file names both (--env or SCHOOL_SERVICE_ENV), each command
 * says first which store and key it uses, a command that administers a store never makes one, and
 * a key that is not the store's is refused, naming the setting to fix.
 */

const INFO = '/GetStudentsInformation.asmx';
const OTHER_KEY = '6b'.repeat(32);
const FINGERPRINT = keyFingerprint(Buffer.from(TEST_OUTBOX_KEY, 'hex'));

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `school-service ARGS` with `cwd` as working folder and only these settings beside PATH. */
function run(cwd: string, settings: Record<string, string>, ...args: string[]): Ran {
  const command = cliFromAnywhere(...args);
  const result = spawnSync(process.execPath, command.args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...command.env, LOG_LEVEL: 'error', ...settings },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function settingsFile(folder: string, settings: Record<string, string>): string {
  const file = join(folder, 'school-service.env');
  const lines = Object.entries(settings).map(([name, value]) => `${name}=${value}`);
  writeFileSync(file, `# the unit's settings\n\n${lines.join('\n')}\n`);
  return file;
}

describeEachEngine('the operator commands act on the configured store with its key', (engine) => {
  let folder: string;
  let elsewhere: string;
  let storeSettings: Record<string, string>;
  let envFile: string;
  let service: RunningService | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-operator-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'school-elsewhere-'));
    storeSettings = engine.freshStoreSettings();
    if (engine.engine === 'sqlite') storeSettings = { DATA_DIR: join(folder, 'data') };
    await (await openTestSchool(storeSettings)).close();
    envFile = settingsFile(folder, { ...storeSettings, OUTBOX_KEY: TEST_OUTBOX_KEY, DEMO_DATA: 'off' });
    service = await startTestService({
      ...REMOTE_TEST_SETTINGS,
      ...storeSettings,
      DEMO_DATA: 'off',
      CONTRACT: 'typed',
    });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  test('from another folder, --env names the store and key: a digest caller added there is let in', async () => {
    const added = run(elsewhere, {}, '--env', envFile, 'callers', 'add', 'portal', '--secret', '--ws-digest');
    expect([added.status, added.stderr]).toEqual([0, expect.any(String)]);
    const where =
      engine.engine === 'sqlite' ? `SQLite ${resolve(folder, 'data', 'school.sqlite')}` : 'PostgreSQL postgres://';
    expect(added.stderr.split('\n')[0]).toContain(`store: ${where}`);
    expect(added.stderr.split('\n')[0]).toContain(`key: OUTBOX_KEY (fingerprint ${FINGERPRINT}, the store's)`);
    expect(added.stderr).toContain(`settings: ${envFile}`);
    const secret = /^ {2}(\S+)$/m.exec(added.stdout)?.[1] as string;
    await (service as RunningService).readCallers();
    const digest = usernameTokenHeader('portal', secret, { digest: true });
    const call = await remoteCall(
      (service as RunningService).url,
      INFO,
      'GetStudentInfoById',
      { StudentId: '3' },
      'soap11',
      {
        soapHeader: digest,
      },
    );
    expect([call.status, call.text]).toEqual([200, expect.stringContaining('<NameAr>')]);
    // Nothing was made in the folder the command ran in.
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('SCHOOL_SERVICE_ENV names the file as --env does', () => {
    const listed = run(elsewhere, { SCHOOL_SERVICE_ENV: envFile }, 'callers', 'list', '--json');
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((caller) => caller.name)).toContain('portal');
    expect(listed.stderr).toContain(`key: OUTBOX_KEY (fingerprint ${FINGERPRINT}, the store's)`);
  });

  test('callers, audit, backup, export, delivery-status make no store: exit 2, saying where they looked', async () => {
    const missing =
      engine.engine === 'sqlite' ? { DATA_DIR: join(elsewhere, 'nothing-here') } : engine.freshStoreSettings();
    for (const args of [
      ['callers', 'list'],
      ['callers', 'add', 'x', '--secret'],
      ['audit', '--caller', 'x'],
      ['backup', join(elsewhere, 'backup.file')],
      ['export', join(elsewhere, 'export')],
      ['delivery-status'],
    ]) {
      const ran = run(elsewhere, { ...missing, OUTBOX_KEY: TEST_OUTBOX_KEY }, ...args);
      const looked = engine.engine === 'sqlite' ? join(elsewhere, 'nothing-here', 'school.sqlite') : 'postgres://';
      expect([args.join(' '), ran.status, ran.stderr]).toEqual([
        args.join(' '),
        2,
        expect.stringContaining(`there is no store at ${looked}`),
      ]);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(await storeExists({ databaseUrl: missing.DATABASE_URL, dataDirectory: missing.DATA_DIR ?? '.' })).toBe(
      false,
    );
  });

  test('a command with another key refuses to seal, naming OUTBOX_KEY; none makes a key file', async () => {
    const wrong = run(
      elsewhere,
      { ...storeSettings, OUTBOX_KEY: OTHER_KEY },
      'callers',
      'add',
      'stray',
      '--ws-digest',
      '--secret',
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain(`is NOT the store's (fingerprint ${FINGERPRINT})`);
    expect(wrong.stderr).toMatch(
      /the key in OUTBOX_KEY \(fingerprint [0-9a-f]{16}\) is not the store's.*set OUTBOX_KEY/,
    );
    // Without OUTBOX_KEY the command would have made a key file: it is refused before that.
    const none = run(elsewhere, storeSettings, 'callers', 'rotate', 'portal');
    expect([none.status, none.stderr]).toEqual([2, expect.stringContaining('set OUTBOX_KEY')]);
    const keyFile = join(storeSettings.DATA_DIR ?? join(elsewhere, 'data'), 'outbox.key');
    expect(existsSync(keyFile)).toBe(false);
    const store = await openTestStore(storeSettings);
    try {
      expect((await allCallers(store)).map((caller) => caller.name)).not.toContain('stray');
    } finally {
      await store.close();
    }
  });

  test('a service holding another key does not start, and says which setting to fix', async () => {
    await expect(startTestService({ ...storeSettings, OUTBOX_KEY: OTHER_KEY, DEMO_DATA: 'off' })).rejects.toThrow(
      /is not the store's .*set OUTBOX_KEY/,
    );
    const served = run(elsewhere, { ...storeSettings, OUTBOX_KEY: OTHER_KEY, PORT: '0', HOST: '127.0.0.1' }, 'serve');
    expect([served.status, served.stderr]).toEqual([2, expect.stringContaining('set OUTBOX_KEY')]);
    // With workers, the supervisor stops with their code rather than starting new ones that fail alike.
    const workers = { ...storeSettings, OUTBOX_KEY: OTHER_KEY, PORT: '0', HOST: '127.0.0.1', WORKERS: '2' };
    expect(run(elsewhere, workers, 'serve').status).toBe(2);
  });

  test('backup names the key in use by its fingerprint', () => {
    const backup = join(folder, 'named-key.backup');
    const ran = run(elsewhere, {}, '--env', envFile, 'backup', backup);
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain(`keep OUTBOX_KEY (fingerprint ${FINGERPRINT}) as well`);
    // Run with another key, it names the store's key, not the one it was given.
    const wrong = run(elsewhere, { ...storeSettings, OUTBOX_KEY: OTHER_KEY }, 'backup', `${backup}.2`);
    expect(wrong.stdout).toContain(`keep the store's key (fingerprint ${FINGERPRINT})`);
  });

  if (engine.engine === 'postgres') {
    test('a setting to fix exits 2 (unknown database or user), a store that is down 1; no password shown', () => {
      const url = new URL(storeSettings.DATABASE_URL as string);
      const unknownDatabase = new URL(url);
      unknownDatabase.pathname = '/no_such_database';
      const unknownUser = new URL(url);
      unknownUser.username = 'nobody';
      unknownUser.password = 'pa55word-never-shown';
      const down = new URL(url);
      down.port = '1';
      const serve = (databaseUrl: string) =>
        run(
          elsewhere,
          { DATABASE_URL: databaseUrl, OUTBOX_KEY: TEST_OUTBOX_KEY, PORT: '0', HOST: '127.0.0.1' },
          'serve',
        );
      expect(serve(unknownDatabase.toString()).status).toBe(2);
      const user = serve(unknownUser.toString());
      expect([user.status, user.stderr]).toEqual([2, expect.not.stringContaining('pa55word')]);
      expect(serve(down.toString()).status).toBe(1);
      const listed = run(elsewhere, { DATABASE_URL: unknownUser.toString() }, 'callers', 'list');
      expect([listed.status, listed.stderr]).toEqual([2, expect.not.stringContaining('pa55word')]);
    });
  }

  test('the settings file is read as systemd reads it', () => {
    const file = join(folder, 'quoted.env');
    writeFileSync(file, `; comment\nDATA_DIR="${join(folder, 'data')}"\nOUTBOX_KEY='${TEST_OUTBOX_KEY}'\n`);
    if (engine.engine === 'postgres')
      writeFileSync(file, `DATABASE_URL=${storeSettings.DATABASE_URL}\nOUTBOX_KEY='${TEST_OUTBOX_KEY}'\n`);
    const listed = run(elsewhere, {}, '--env', file, 'delivery-status', '--json');
    expect([listed.status, listed.stderr]).toEqual([
      0,
      expect.stringContaining(`fingerprint ${FINGERPRINT}, the store's`),
    ]);
    writeFileSync(file, 'not a setting\n');
    const bad = run(elsewhere, {}, '--env', file, 'delivery-status');
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining(`${file} line 1 is not NAME=value`)]);
    expect(loadConfig({}).dataDirectory).toBe('./data');
  });
});

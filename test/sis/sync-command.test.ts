import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliArguments, ROOT } from '../support/cli';
import { OneRosterProvider, PROVIDER_CLIENT, schoolOf, sisSchool } from '../support/oneroster-provider';
import { schoolRowsIn } from '../support/roster-import';

/**
 * `school-service sync` as an operator runs it, a process against the provider on loopback: the
 * summary, the exit codes (0 written, 2 nothing written, 3 another sync runs), one log line, and
 * the secret nowhere in what it prints.
 */
const run = promisify(execFile);

describe('school-service sync', () => {
  let provider: OneRosterProvider;
  let folder: string;
  beforeAll(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.1'));
    await provider.start();
    folder = mkdtempSync(join(tmpdir(), 'sync-command-'));
  });
  afterAll(async () => {
    await provider.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const sync = async (settings: Record<string, string>, ...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, cliArguments('sync', ...args), {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '', DEMO_DATA: 'off', ...settings },
        encoding: 'utf8',
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const rows = () => schoolRowsIn(folder);

  test('--dry-run writes nothing; then a full sync, then a delta, each summed up on one line', async () => {
    const settings = provider.settings('1.1');
    const dry = await sync(settings, '--dry-run');
    expect(dry.stdout).toMatch(
      /^bulk sync would apply: \d+ added, 0 changed, 0 deleted, 0 warnings, 0 problems; \d+ records/m,
    );
    expect(dry.stdout).toMatch(/; by kind: .*students \(3 added\)/m);
    // The import's notes, as import prints them, at the provider's collection.
    expect(dry.stderr).toMatch(
      /^orgs collection \(orgs\.csv:1:\d+ of the sync's bundle\): note columns-not-read: not read: /m,
    );
    expect(dry.code).toBe(0);
    expect((await rows()).students).toHaveLength(0);
    const full = await sync(settings);
    expect(full.stdout).toMatch(/^bulk sync: \d+ added, 0 changed, 0 deleted, 0 warnings, 0 problems; /m);
    expect(full.code).toBe(0);
    expect((await rows()).students).toHaveLength(3);
    const logLines = full.stderr.split('\n').filter((line) => line.includes('"sis sync"'));
    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0])).toMatchObject({ outcome: 'done', mode: 'bulk' });
    const delta = await sync({ ...settings, LOG_LEVEL: 'warn' });
    expect(delta.stdout).toMatch(/^delta sync: 0 added, 0 changed, 0 deleted/m);
  });

  test('a refused secret writes nothing, exits 2, and the secret is in nothing it prints', async () => {
    const secretFile = join(folder, 'secret');
    writeFileSync(secretFile, 'wrong-secret-0c1d\n');
    const settings = { ...provider.settings('1.1'), SIS_CLIENT_SECRET: '', SIS_CLIENT_SECRET_FILE: secretFile };
    const failed = await sync(settings, '--full');
    expect(failed.code).toBe(2);
    expect(failed.stdout).toMatch(/^Sync failed, nothing was written: \/ims\/oneroster\/v1p1\/orgs: answered 401/m);
    expect(`${failed.stdout}${failed.stderr}`).not.toContain('wrong-secret-0c1d');
    expect(`${failed.stdout}${failed.stderr}`).not.toContain(PROVIDER_CLIENT.secret);
  });

  test('without SIS_URL it is a usage error', async () => {
    const done = await sync({ SIS_URL: '' });
    expect(done.code).toBe(2);
    expect(done.stderr).toContain('sync needs SIS_URL');
  });
});

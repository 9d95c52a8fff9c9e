import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { revokeCaller } from '../../src/access/caller-admin';
import { CallerRegistry } from '../../src/access/caller-registry';
import { readAccessSettings } from '../../src/config/access-settings';
import type { Store } from '../../src/store/open-store';
import { allCallers } from '../../src/store/queries/callers';
import { addTestCaller, TEST_OUTBOX_KEY, testDigestSealer } from '../support/callers';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { openTestSchool } from '../support/stores';

/**
 * `school-service callers` as the operator runs it, on each engine: a scope naming no one the
 * store holds is a warning, `update` changes what a caller may do, `rotate --grace` lists the old
 * secret's grace, `--expires` reads a date as the end of that day in the service's time zone, and
 * revoked callers leave the list after ACCESS_REVOKED_KEEP_DAYS.
 */
const DAY_MS = 86_400_000;

interface Listed {
  name: string;
  state: string;
  networks: string[];
  operations: string[];
  scope: string;
  expires: string | null;
  previousSecretUntil: string | null;
}

describeEachEngine('the callers command', (engine) => {
  let settings: Record<string, string>;
  let store: Store;
  beforeAll(async () => {
    settings = engine.freshStoreSettings();
    store = await openTestSchool(settings);
  });
  afterAll(async () => {
    await store?.close();
    if (settings?.DATA_DIR) rmSync(settings.DATA_DIR, { recursive: true, force: true });
  });

  /**
   * Runs `school-service callers ARGS...` on the store, in a time zone three hours ahead of UTC; its
   * stderr without the line every store command starts with (which store and key; see operator-store.test.ts).
   */
  const callers = (args: string[], env: Record<string, string> = {}) => {
    const run = spawnSync(process.execPath, cliArguments('callers', ...args), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: '',
        DATABASE_URL: '',
        OUTBOX_KEY: TEST_OUTBOX_KEY,
        TZ: 'Asia/Riyadh',
        LOG_LEVEL: 'warn',
        ...settings,
        ...env,
      },
      encoding: 'utf8',
    });
    return { ...run, stderr: run.stderr.replace(/^store: .*\n/, '') };
  };
  const listed = (env: Record<string, string> = {}): Listed[] => {
    const run = callers(['list', '--json'], env);
    expect([run.status, run.stderr]).toEqual([0, '']);
    return JSON.parse(run.stdout) as Listed[];
  };
  const named = (name: string) => listed().find((caller) => caller.name === name);

  test('add warns of a scope naming no one the store holds, and reads a date as the end of that day there', () => {
    const unknown = callers(['add', 'parent-x', '--secret', '--scope', 'guardian:99999', '--expires', '2099-06-30']);
    expect(unknown.status).toBe(0);
    expect(unknown.stderr).toBe('warning: the store holds no guardian 99999: the caller sees nothing until it does\n');
    expect(unknown.stdout).toContain('Secret of parent-x');
    expect(named('parent-x')).toMatchObject({ scope: 'guardian:99999', expires: '2099-06-30T20:59:59.999Z' });
    const known = callers(['add', 'parent-1', '--secret', '--scope', 'guardian:1', '--expires', '2099-06-30T08:00']);
    expect([known.status, known.stderr]).toEqual([0, '']);
    expect(named('parent-1')?.expires).toBe('2099-06-30T05:00:00.000Z');
    const wrongDay = callers(['add', 'parent-2', '--secret', '--expires', '2099-02-30']);
    expect([wrongDay.status, wrongDay.stderr]).toEqual([2, 'school-service: --expires: no such day: 2099-02-30\n']);
  });

  test("update changes a caller's networks, operations, scope and expiry, and warns of an unknown scope", () => {
    const changed = callers([
      'update',
      'parent-x',
      '--scope',
      'teacher:99999',
      '--operations',
      'queries,documents',
      '--network',
      '10.20.0.0/16',
      '--expires',
      'never',
    ]);
    expect(changed.status).toBe(0);
    expect(changed.stderr).toBe('warning: the store holds no teacher 99999: the caller sees nothing until it does\n');
    expect(named('parent-x')).toMatchObject({
      scope: 'teacher:99999',
      operations: ['queries', 'documents'],
      networks: ['10.20.0.0/16'],
      expires: null,
    });
    expect(callers(['update', 'parent-x', '--any-network', '--scope', 'student:1']).status).toBe(0);
    expect(named('parent-x')).toMatchObject({ scope: 'student:1', networks: [] });
    const nothing = callers(['update', 'parent-x']);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain('name at least one change');
    expect(callers(['update', 'nobody', '--scope', 'school']).stderr).toBe(
      'school-service: there is no active caller named nobody\n',
    );
  });

  test('rotate --grace keeps the old secret for the grace period, which list shows', () => {
    const before = Date.now();
    const rotated = callers(['rotate', 'parent-1', '--grace', '24h']);
    expect([rotated.status, rotated.stderr]).toEqual([0, '']);
    expect(rotated.stdout).toMatch(
      /The previous secret keeps working for 1d, until \d{4}-\d{2}-\d{2} [\d:]{8} \+03:00/,
    );
    const until = Date.parse(named('parent-1')?.previousSecretUntil ?? '');
    expect(until).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const text = callers(['list']);
    expect(text.stdout).toMatch(/^parent-1 {2}active .* previous secret until \d{4}-\d{2}-\d{2} [\d:]{8} \+03:00 /m);
    const wrong = callers(['rotate', 'parent-1', '--grace', '24 hours']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('is not a span of time');
  });

  test('revoked callers leave the list after ACCESS_REVOKED_KEEP_DAYS, and the service removes them', async () => {
    await addTestCaller(store, { name: 'gone-long-ago', secret: true });
    await addTestCaller(store, { name: 'gone-lately', secret: true });
    await revokeCaller(store, 'gone-long-ago', new Date(Date.now() - 40 * DAY_MS));
    expect(callers(['revoke', 'gone-lately']).stdout).toContain('It stays in the list for 30 days');
    const names = () => listed().map((caller) => caller.name);
    expect(names()).toContain('gone-lately');
    expect(names()).not.toContain('gone-long-ago');
    expect(listed({ ACCESS_REVOKED_KEEP_DAYS: '60' }).map((caller) => caller.name)).toContain('gone-long-ago');
    const registry = await CallerRegistry.open(store, readAccessSettings({}), testDigestSealer(), () => new Date());
    registry.stop();
    const stored = (await allCallers(store)).map((caller) => caller.name);
    expect(stored).toContain('gone-lately');
    expect(stored).not.toContain('gone-long-ago');
  });

  test("--help says a date alone is the end of that day in the service's time zone", () => {
    const help = callers(['add', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      "a date alone (2027-06-30), meaning the end of that day in the service's time zone",
    );
    expect(callers(['rotate', '--help']).stdout).toContain('--grace <span>');
  });
});

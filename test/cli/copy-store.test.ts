import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { rowCount, tablesInDependencyOrder } from '../../src/store/copy/table-catalog';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite/files';
import { callWithDigest, loadTestSchoolWithCallers, REMOTE_TEST_SETTINGS, TEST_OUTBOX_KEY } from '../support/callers';
import { cliArguments, ROOT } from '../support/cli';
import { callJson, pushToNumberedDevice } from '../support/json-calls';
import { createDatabase, postgresBinDirectory, startTestPostgres, type TestPostgres } from '../support/postgres';
import { startTestService } from '../support/service';
import { openTestSchool, withTestStore } from '../support/stores';
import { describeOnPostgres } from '../support/tools';

/**
 * Moving the school between engines and restoring it: `copy-store --to URL` takes everything
 * (callers with their hashes and sealed secrets, the audit trail, the outbox) from SQLite to
 * PostgreSQL and back, counts equal table by table, and a WS-Security digest caller is still let
 * in; `restore BACKUP` fills an empty store and refuses a full one unless --replace; every file of
 * the school's data is created 0600 whatever the umask.
 */

const INFO = '/GetStudentsInformation.asmx';
const SETTINGS = { ...REMOTE_TEST_SETTINGS, CONTRACT: 'typed', DEMO_DATA: 'off', DELIVERY_WORKER: 'off' };

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `school-service ARGS` under umask 000, the widest, with these store settings and the nodes' key. */
function run(settings: Record<string, string>, ...args: string[]): Ran {
  const result = spawnSync('sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, ...cliArguments(...args)], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: '',
      DATABASE_URL: '',
      LOG_LEVEL: 'error',
      OUTBOX_KEY: TEST_OUTBOX_KEY,
      ...settings,
    },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every table's row count, as the store itself lists its tables. */
function tableCounts(settings: Record<string, string>): Promise<Record<string, number>> {
  return withTestStore(settings, async (store) => {
    const counts: Record<string, number> = {};
    for (const table of (await tablesInDependencyOrder(store)).sort()) counts[table] = await rowCount(store, table);
    return counts;
  });
}

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

describeOnPostgres()('copy-store and restore move the whole school between engines', () => {
  let folder: string;
  let cluster: TestPostgres;
  let databases = 0;
  let digestSecret: string;
  let original: Record<string, string>;
  let originalCounts: Record<string, number>;
  const services: RunningService[] = [];
  const freshPostgres = () => {
    databases += 1;
    return { DATABASE_URL: createDatabase(cluster.url, `copy_${databases}`) };
  };
  const freshSqlite = (name: string) => ({ DATA_DIR: join(folder, name) });

  /** A service on `settings` lets the digest caller in, and answers the student it answered before. */
  async function digestCallerLetIn(settings: Record<string, string>): Promise<void> {
    const service = await startTestService({ ...SETTINGS, ...settings });
    services.push(service);
    const call = await callWithDigest(service.url, 'legacy-ws', digestSecret, '7');
    expect([call.status, call.text]).toEqual([200, expect.stringContaining('<NameAr>')]);
    await service.close();
  }

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-copy-'));
    cluster = await startTestPostgres();
    original = freshSqlite('original');
    ({ 'legacy-ws': digestSecret } = await loadTestSchoolWithCallers(original, [
      { name: 'legacy-ws', wsDigest: true, operations: ['queries'] },
    ]));
    // Calls that leave an audit trail and an outbox (sealed with the key) behind.
    const service = await startTestService({ ...SETTINGS, ...original });
    services.push(service);
    for (let index = 1; index <= 5; index += 1)
      expect((await pushToNumberedDevice(service.url, index)).status).toBe(200);
    for (let id = 1; id <= 5; id += 1)
      expect((await callJson(service.url, INFO, 'GetStudentInfoById', { StudentId: id })).status).toBe(200);
    await service.close();
    originalCounts = await tableCounts(original);
  }, 120_000);
  afterAll(async () => {
    for (const service of services) await service.close();
    cluster?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the original holds callers, an audit trail, an outbox and the key fingerprint', () => {
    expect(originalCounts).toMatchObject({ callers: 1, outbox_messages: 5, store_key: 1, students: 120 });
    expect(originalCounts.audit_events).toBeGreaterThan(0);
    expect(originalCounts).not.toHaveProperty('service_processes');
  });

  test('SQLite to PostgreSQL and back: counts equal table by table, the digest caller let in on each', async () => {
    const postgres = freshPostgres();
    const there = run(original, 'copy-store', '--to', postgres.DATABASE_URL);
    expect([there.status, there.stderr]).toEqual([0, expect.stringContaining('store: SQLite')]);
    expect(there.stdout).toMatch(/^Copied .* to postgres:\/\/.*: \d+ tables, [\d,]+ rows, each table's count checked/);
    // Tables are found in the database, not listed: one a migration adds is copied with the rest.
    expect(there.stdout).toContain('roster_fields 0');
    expect(await tableCounts(postgres)).toEqual(originalCounts);
    await digestCallerLetIn(postgres);

    const back = freshSqlite('back');
    const copiedBack = run(postgres, 'copy-store', '--to', `sqlite:${back.DATA_DIR}`);
    expect([copiedBack.status, copiedBack.stderr]).toEqual([0, expect.stringContaining('store: PostgreSQL')]);
    // The copy's services added their own audit rows on the way: compare with the store copied from.
    expect(await tableCounts(back)).toEqual(await tableCounts(postgres));
    await digestCallerLetIn(back);
    expect(mode(join(back.DATA_DIR, SQLITE_FILE_NAME))).toBe('600');

    // The ids go on after the copied ones: a new caller on PostgreSQL takes the next id.
    const added = run(postgres, 'callers', 'add', 'after-copy', '--secret');
    expect(added.status).toBe(0);
  });

  test('copy-store refuses a store that is not empty, and writes nothing', async () => {
    const target = freshSqlite('full');
    await (await openTestSchool(target)).close();
    const before = await tableCounts(target);
    const refused = run(original, 'copy-store', '--to', `sqlite:${target.DATA_DIR}`);
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining('is not empty (it holds ')]);
    expect(await tableCounts(target)).toEqual(before);
    expect(run(original, 'copy-store', '--to', 'mysql://x').status).toBe(2);
  });

  test('restore fills an empty store of either engine from a backup, refuses a full one unless --replace', async () => {
    const backup = join(folder, 'school.backup');
    expect(run(original, 'backup', backup).status).toBe(0);
    expect(mode(backup)).toBe('600');

    const sqlite = freshSqlite('restored');
    const restored = run(sqlite, 'restore', backup);
    expect([restored.status, restored.stdout]).toEqual([0, expect.stringMatching(/^Restored .*: \d+ tables/)]);
    expect(await tableCounts(sqlite)).toEqual(originalCounts);
    await digestCallerLetIn(sqlite);

    const again = run(sqlite, 'restore', backup);
    expect([again.status, again.stderr]).toEqual([2, expect.stringContaining('pass --replace')]);
    const replaced = run(sqlite, 'restore', backup, '--replace');
    expect(replaced.status).toBe(0);
    expect(await tableCounts(sqlite)).toEqual(originalCounts);

    const postgres = freshPostgres();
    expect(run(postgres, 'restore', backup).status).toBe(0);
    expect(await tableCounts(postgres)).toEqual(originalCounts);

    // A pg_dump backup restores into PostgreSQL with pg_restore, into a new store or over one with --replace.
    const dump = join(folder, 'school.dump');
    const dumped = run({ ...postgres, PATH: `${postgresBinDirectory()}:${process.env.PATH}` }, 'backup', dump);
    expect([dumped.status, dumped.stderr]).toEqual([0, expect.any(String)]);
    expect(mode(dump)).toBe('600');
    const fromDump = freshPostgres();
    const pgPath = { PATH: `${postgresBinDirectory()}:${process.env.PATH}` };
    expect(run({ ...fromDump, ...pgPath }, 'restore', dump).status).toBe(0);
    expect(await tableCounts(fromDump)).toEqual(await tableCounts(postgres));
    expect(run({ ...fromDump, ...pgPath }, 'restore', dump).status).toBe(2);
    expect(run({ ...fromDump, ...pgPath }, 'restore', dump, '--replace').status).toBe(0);
    await digestCallerLetIn(fromDump);
    expect(run(freshSqlite('from-dump'), 'restore', dump).status).toBe(2);
  });

  test('school data files are created 0600 whatever the umask: store, WAL, key, backup, export', async () => {
    const settings = freshSqlite('private');
    expect(run({ ...settings, OUTBOX_KEY: '' }, 'demo-data', '--students', '10').status).toBe(0);
    expect(run({ ...settings, OUTBOX_KEY: '' }, 'callers', 'add', 'digest', '--ws-digest', '--secret').status).toBe(0);
    expect(run({ ...settings, OUTBOX_KEY: '' }, 'export', join(folder, 'export.zip')).status).toBe(0);
    expect(run({ ...settings, OUTBOX_KEY: '' }, 'export', join(folder, 'export-folder')).status).toBe(0);
    const files = [
      join(settings.DATA_DIR, SQLITE_FILE_NAME),
      join(settings.DATA_DIR, 'outbox.key'),
      join(folder, 'export.zip'),
      ...readdirSync(join(folder, 'export-folder')).map((file) => join(folder, 'export-folder', file)),
    ];
    expect(files.map((file) => [file, mode(file)])).toEqual(files.map((file) => [file, '600']));
    expect(mode(settings.DATA_DIR)).toBe('700');
    // A serving store's WAL and shared-memory files, under the widest umask in this process too.
    const umask = process.umask(0);
    try {
      const service = await startTestService({ ...SETTINGS, ...settings, OUTBOX_KEY: '' });
      services.push(service);
      expect((await callJson(service.url, INFO, 'GetStudentInfoById', { StudentId: 1 })).status).toBe(200);
      const companions = ['-wal', '-shm'].map((suffix) => join(settings.DATA_DIR, `${SQLITE_FILE_NAME}${suffix}`));
      expect(companions.map((file) => [existsSync(file), mode(file)])).toEqual([
        [true, '600'],
        [true, '600'],
      ]);
      await service.close();
    } finally {
      process.umask(umask);
    }
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { RunningService } from '../../src/service';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite/files';
import { allCallers } from '../../src/store/queries/callers';
import { outboxCounts } from '../../src/store/queries/outbox';
import {
  callWithDigest,
  loadTestSchoolWithCallers,
  REMOTE_TEST_SETTINGS,
  remoteCall,
  TEST_OUTBOX_KEY,
} from '../support/callers';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine, type EngineName } from '../support/engines';
import { eventually } from '../support/eventually';
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway';
import { callJson, pushToNumberedDevice } from '../support/json-calls';
import { postgresBinDirectory } from '../support/postgres';
import { startTestService } from '../support/service';
import { TEST_SCHOOL, withTestStore } from '../support/stores';
import { callOperation } from '../support/typed-calls';

/**
 * `school-service backup PATH` taken while the service serves under load (reads, and pushes
 * written to the outbox), restored into a new store as docs/deployment.md says: the restored
 * service answers as the original did, lets in the same callers (a WS-Security digest secret is
 * sealed with the service key), and delivers exactly the pushes the backup caught, each readable.
 */

const INFO = '/GetStudentsInformation.asmx';
const SETTINGS = {
  ...REMOTE_TEST_SETTINGS,
  CONTRACT: 'typed',
  DEMO_DATA: 'off',
  PUSH_PER_SENDER_PER_MINUTE: '1000000',
  PUSH_PER_CALLER_PER_MINUTE: '1000000',
};

/** Restores a backup into a new, empty store, with the commands docs/deployment.md gives. */
function restore(engine: EngineName, backup: string, into: Record<string, string>): void {
  if (engine === 'sqlite') {
    copyFileSync(backup, join(into.DATA_DIR, SQLITE_FILE_NAME));
    return;
  }
  const restored = spawnSync(
    join(postgresBinDirectory() as string, 'pg_restore'),
    ['--no-owner', '--exit-on-error', '--dbname', into.DATABASE_URL, backup],
    { encoding: 'utf8' },
  );
  expect([restored.status, restored.stderr]).toEqual([0, '']);
}

/** Every student as typed SOAP 1.1 answers them. */
async function everyStudent(service: RunningService): Promise<unknown[]> {
  const answers: unknown[] = [];
  for (let id = 1; id <= TEST_SCHOOL.students; id += 1) {
    const answer = await callOperation(service.url, INFO, 'GetStudentInfoById', { StudentId: String(id) }, 'soap11');
    answers.push([answer.status, answer.result]);
  }
  return answers;
}

describeEachEngine('a backup taken while the service serves, restored into a new store', (engine) => {
  let folder: string;
  let original: Record<string, string>;
  let service: RunningService | undefined;
  let restoredService: RunningService | undefined;
  let gateway: FakeGateway;
  let digestSecret: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-backup-'));
    gateway = await startFakeGateway();
    original = engine.freshStoreSettings();
    ({ 'legacy-ws': digestSecret } = await loadTestSchoolWithCallers(original, [
      { name: 'legacy-ws', wsDigest: true, operations: ['queries'] },
      { name: 'office', networks: ['127.0.0.3/32'] },
    ]));
    service = await startTestService({ ...SETTINGS, ...original });
  });
  afterAll(async () => {
    await service?.close();
    await restoredService?.close();
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the restored store answers as the original, with its callers and the pushes the backup caught', async () => {
    const live = service as RunningService;
    const backup = join(folder, engine.engine === 'sqlite' ? 'school.sqlite' : 'school.dump');
    let pushesStarted = 0;
    let pushesAccepted = 0;
    let serving = true;
    const pushes = async () => {
      while (serving) {
        pushesStarted += 1;
        const index = pushesStarted;
        const answer = await pushToNumberedDevice(live.url, index);
        expect(answer.status).toBe(200);
        pushesAccepted += 1;
      }
    };
    const reads = async () => {
      for (let id = 1; serving; id = (id % TEST_SCHOOL.students) + 1) {
        expect((await callJson(live.url, INFO, 'GetStudentInfoById', { StudentId: id })).status).toBe(200);
      }
    };
    const load = Promise.all([pushes(), pushes(), reads(), reads()]);
    while (pushesAccepted < 20) await new Promise((resolve) => setTimeout(resolve, 20));

    const acceptedBeforeBackup = pushesAccepted;
    const command = spawn(process.execPath, cliArguments('backup', backup), {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', OUTBOX_KEY: TEST_OUTBOX_KEY, ...original },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    command.stdout.on('data', (chunk) => (output += chunk));
    command.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => command.on('close', resolve));
    const startedBeforeBackupEnded = pushesStarted;
    serving = false;
    await load;
    expect([code, output]).toEqual([0, expect.stringContaining(`to ${backup} (`)]);
    expect(output).toContain('keep OUTBOX_KEY (fingerprint ');

    const restored = engine.freshStoreSettings();
    restore(engine.engine, backup, restored);
    if (engine.engine === 'sqlite') {
      // One file, whole: no journal beside it, and SQLite finds nothing wrong in it.
      const copy = new BetterSqlite3(backup, { readonly: true });
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      copy.close();
    }
    // The backup is one moment of the store: every push accepted before it began, none started after it ended.
    const caught = await withTestStore(restored, async (store) => (await outboxCounts(store)).queued);
    expect(caught).toBeGreaterThanOrEqual(acceptedBeforeBackup);
    expect(caught).toBeLessThanOrEqual(startedBeforeBackupEnded);
    expect(await withTestStore(restored, allCallers)).toEqual(await withTestStore(original, allCallers));

    restoredService = await startTestService({
      ...SETTINGS,
      ...restored,
      PUSH_GATEWAY_URL: `${gateway.url}/send`,
      DELIVERY_POLL_MS: '50',
    });
    expect(await everyStudent(restoredService)).toEqual(await everyStudent(live));
    const byDigest = await callWithDigest(restoredService.url, 'legacy-ws', digestSecret, '5');
    expect([byDigest.status, byDigest.text]).toEqual([200, expect.stringContaining('<NameAr>')]);
    const byNetwork = await remoteCall(restoredService.url, INFO, 'GetStudentInfoById', { StudentId: '5' }, 'json', {
      from: '127.0.0.3',
    });
    expect(byNetwork.status).toBe(200);

    // Each caught push is opened with the service key and delivered once.
    const delivered = await gateway.waitForRequests(caught, 30_000);
    const restoredStore = (restoredService as RunningService).store;
    await eventually(
      async () => (await outboxCounts(restoredStore)).sent,
      (sent) => sent >= caught,
    );
    const bodies = delivered.map(
      (request) => (JSON.parse(request.body) as { message: { notification: { body: string } } }).message.notification,
    );
    expect(bodies).toHaveLength(caught);
    expect(new Set(bodies.map((body) => body.body)).size).toBe(caught);
    expect(bodies.every((body) => /^message \d+$/.test(body.body))).toBe(true);
  });
});

describe('school-service backup used wrongly', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-backup-usage-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const backup = (path: string, dataDirectory: string, databaseUrl = '') =>
    spawnSync(process.execPath, cliArguments('backup', path), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });

  test('it overwrites no file, and names a store that is not there; exit code 2 and nothing written', async () => {
    await withTestStore({ DATA_DIR: folder }, async () => undefined);
    const existing = join(folder, SQLITE_FILE_NAME);
    const overwrite = backup(existing, folder);
    expect([overwrite.status, overwrite.stderr]).toEqual([2, expect.stringContaining('exists already')]);
    const nowhere = join(folder, 'nowhere');
    const missing = backup(join(folder, 'copy.sqlite'), nowhere);
    expect([missing.status, missing.stderr]).toEqual([
      2,
      expect.stringContaining(`school-service: there is no store at ${nowhere}/school.sqlite (DATA_DIR=${nowhere}`),
    ]);
    expect(backup(join(folder, 'no-folder', 'copy.sqlite'), folder).status).toBe(2);
    expect(readdirSync(folder)).toEqual([SQLITE_FILE_NAME]);
  });

  test('a PostgreSQL store it cannot reach: exit code 1, the reason, and no file left behind', () => {
    const failed = backup(join(folder, 'school.dump'), folder, 'postgres://school:secret@127.0.0.1:1/school');
    expect([failed.status, failed.stderr]).toEqual([
      1,
      expect.stringMatching(/^school-service: cannot reach the store at postgres:\/\/school@127\.0\.0\.1:1\/school: /),
    ]);
    expect(failed.stderr).not.toContain('secret');
    expect(readdirSync(folder)).toEqual([SQLITE_FILE_NAME]);
  });
});

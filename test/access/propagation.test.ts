import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { revokeCaller } from '../../src/access/caller-admin';
import type { RunningService } from '../../src/service';
import { addTestCaller, REMOTE_TEST_SETTINGS } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { remoteFetch } from '../support/remote-client';
import { startTestService } from '../support/service';
import { type ServiceProcess, startServiceProcess } from '../support/service-process';
import { openTestStore } from '../support/stores';

/**
 * A change of callers reaches every process serving the store within five seconds, without a
 * restart: each worker of WORKERS=2, and each instance sharing one PostgreSQL store. The services
 * here look for changes at the default pace (ACCESS_REFRESH_MS 2 s).
 */
const LIMIT_MS = 5_000;
const ASK = '/GetNoteType.asmx/GetStudentsNoteType';

/** How long until `count` calls in a row, each on a connection of its own, answer `status`. */
async function timeUntil(urls: readonly string[], status: number, count = 8): Promise<number> {
  const started = Date.now();
  let inARow = 0;
  while (inARow < count) {
    if (Date.now() - started > 3 * LIMIT_MS)
      throw new Error(`no run of ${count} answers ${status} in ${3 * LIMIT_MS} ms`);
    const url = urls[inARow % urls.length];
    const answer = await remoteFetch(`${url}${ASK}`, { headers: { Connection: 'close' } });
    inARow = answer.status === status ? inARow + 1 : 0;
    if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe('callers changed while WORKERS=2 serve', () => {
  let folder: string;
  let service: ServiceProcess;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-propagation-'));
    service = await startServiceProcess(
      { DATA_DIR: folder, DEMO_DATA: 'off', WORKERS: '2', LOCAL_NETWORKS: '127.0.0.1/32' },
      'workers listening',
    );
  });
  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  test('reach both workers within five seconds, added and revoked', async () => {
    const { url } = service;
    expect((await remoteFetch(`${url}${ASK}`)).status).toBe(403);
    const store = await openTestStore({ DATA_DIR: folder });
    try {
      await addTestCaller(store, { name: 'office', networks: ['127.0.0.2/32'] });
      expect(await timeUntil([url], 200)).toBeLessThan(LIMIT_MS);
      await revokeCaller(store, 'office', new Date());
      expect(await timeUntil([url], 403)).toBeLessThan(LIMIT_MS);
    } finally {
      await store.close();
    }
  });
});

describeEachEngine('callers changed under two instances sharing a store', ({ engine, freshStoreSettings }) => {
  let services: RunningService[] = [];
  beforeAll(async () => {
    const settings = freshStoreSettings();
    const shared = { ...settings, ...REMOTE_TEST_SETTINGS, ACCESS_REFRESH_MS: '2000', DEMO_DATA: 'off' };
    services = [await startTestService(shared), await startTestService(shared)];
  });
  afterAll(async () => {
    for (const service of services) await service.close();
  });

  test(`reach every instance within five seconds (${engine})`, async () => {
    const urls = services.map((service) => service.url);
    await addTestCaller(services[0].store, { name: 'office', networks: ['127.0.0.2/32'] });
    expect(await timeUntil(urls, 200)).toBeLessThan(LIMIT_MS);
  });
});

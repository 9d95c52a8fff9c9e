import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { pushToNumberedDevice } from '../support/json-calls';
import { killed, startServiceProcess } from '../support/service-process';
import { withTestStore } from '../support/stores';

/**
 * Nothing accepted is lost across a crash: the service accepts pushes while it cannot deliver
 * them, is killed with SIGKILL, and once started again delivers every one of them, once.
 */

const MESSAGES = 25;

describe('Crash recovery of the outbox', () => {
  let folder: string;
  let gateway: FakeGateway;
  let running: ChildProcess | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-crash-'));
    gateway = await startFakeGateway();
  });

  afterAll(async () => {
    running?.kill('SIGKILL');
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test(`${MESSAGES} pushes accepted before a SIGKILL all arrive after the restart, none twice`, async () => {
    const settings = { DATA_DIR: folder, PUSH_GATEWAY_URL: `${gateway.url}/send`, DELIVERY_POLL_MS: '50' };
    // First life: the worker does not run, so everything accepted is still waiting when the process dies.
    const first = await startServiceProcess({ ...settings, DELIVERY_WORKER: 'off' });
    running = first.child;
    for (let index = 1; index <= MESSAGES; index += 1) {
      const answer = await pushToNumberedDevice(first.url, index);
      expect(answer.status).toBe(200);
    }
    await killed(first.child);
    expect(gateway.received).toHaveLength(0);

    const second = await startServiceProcess(settings);
    running = second.child;
    await gateway.waitForRequests(MESSAGES, 30_000);
    // Once the outbox holds nothing left to send, every send (a second one too) has reached the gateway.
    const unsent = await withTestStore({ DATA_DIR: folder }, (store) =>
      eventually(
        () => store.db.selectFrom('outbox_messages').select('id').where('state', '!=', 'sent').execute(),
        (rows) => rows.length === 0,
      ),
    );
    expect(unsent).toEqual([]);
    const bodies = gateway.received
      .map(
        (request) =>
          (JSON.parse(request.body) as { message: { notification: { body: string } } }).message.notification.body,
      )
      .sort();
    expect(bodies).toEqual(Array.from({ length: MESSAGES }, (_, index) => `message ${index + 1}`).sort());
    await killed(second.child);
    running = undefined;
  });
});

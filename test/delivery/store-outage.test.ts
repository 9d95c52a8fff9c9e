import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/service-config';
import { enqueueMessages } from '../../src/delivery/outbox';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/delivery/worker';
import { setLogLevel } from '../../src/lib/log';
import { payloadSealer } from '../../src/lib/payload-sealer';
import type { Store } from '../../src/store/open-store';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { describeOnPostgres } from '../support/tools';
import { openTestSchool } from '../support/stores';

/**
 * PostgreSQL restarting while the delivery worker waits for the gateway: the message has reached
 * the gateway, but its outcome cannot be written. The worker writes it once the store is back,
 * within the lease, so the message is not sent a second time when the lease runs out.
 */

const sealer = payloadSealer(randomBytes(32));

describeOnPostgres()('The delivery worker across a PostgreSQL restart', () => {
  let postgres: TestPostgres | undefined;
  let store: Store | undefined;
  let gateway: FakeGateway | undefined;
  let worker: DeliveryWorker | undefined;

  beforeAll(async () => {
    setLogLevel('silent');
    postgres = await startTestPostgres();
    store = await openTestSchool({ DATABASE_URL: createDatabase(postgres.url, 'school_outage') });
    gateway = await startFakeGateway();
  });

  afterAll(async () => {
    await worker?.stop(Date.now());
    await gateway?.close();
    await store?.close();
    postgres?.stop();
  });

  test('records a send the gateway took during the outage once the store is back, and sends it once', async () => {
    const db = (store as Store).db;
    const push = gateway as FakeGateway;
    const cluster = postgres as TestPostgres;
    const device = await db.selectFrom('devices').select(['id', 'push_token']).orderBy('id').executeTakeFirstOrThrow();
    await enqueueMessages(
      store as Store,
      [
        {
          channel: 'push',
          recipient: device.push_token,
          deviceId: device.id,
          content: { title: 't', body: 'once', data: {} },
        },
      ],
      'ref-outage',
      new Date(),
      sealer,
    );
    let answer: () => void = () => undefined;
    push.answerNext({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"projects/demo/messages/1"}',
      after: new Promise<void>((resolve) => {
        answer = resolve;
      }),
    });
    // A lease longer than the outage, so that a record written when the store is back still counts;
    // short enough that, were the outcome never written, the message would be sent again in this test.
    const settings = loadConfig({
      PUSH_GATEWAY_URL: `${push.url}/send`,
      DELIVERY_POLL_MS: '50',
      DELIVERY_LEASE_MS: '8000',
    }).delivery;
    worker = startDeliveryWorker(store as Store, settings, sealer);
    await push.waitForRequests(1);

    await cluster.stopServer();
    answer();
    await cluster.startServer();

    const deadline = Date.now() + 20_000;
    let state = '';
    while (state !== 'sent' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const row = await db
        .selectFrom('outbox_messages')
        .select('state')
        .executeTakeFirst()
        .catch(() => undefined);
      state = row?.state ?? '';
    }
    expect(state).toBe('sent');
    expect(push.received).toHaveLength(1);
  });
});

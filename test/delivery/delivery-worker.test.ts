import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config/service-config';
import type { DeliveryConfig } from '../../src/config/delivery-settings';
import { enqueueMessages, type NewMessage } from '../../src/delivery/outbox';
import { payloadSealer } from '../../src/lib/payload-sealer';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/delivery/worker';
import { setLogLevel } from '../../src/lib/log';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { openTestSchool, openTestStore } from '../support/stores';

const sealer = payloadSealer(randomBytes(32));

// The worker logs every outcome; these tests read the outcomes from the store instead.
beforeAll(() => setLogLevel('silent'));

function settingsFor(push: FakeGateway, sms: FakeGateway, extra: Record<string, string> = {}): DeliveryConfig {
  return loadConfig({
    PUSH_GATEWAY_URL: `${push.url}/v1/projects/demo/messages:send`,
    PUSH_GATEWAY_TOKEN: 'push-credential',
    SMS_GATEWAY_URL: `${sms.url}/send`,
    SMS_GATEWAY_AUTHORIZATION: 'Basic c2Nob29sOnNlY3JldA==',
    DELIVERY_POLL_MS: '20',
    DELIVERY_BACKOFF_BASE_MS: '50',
    DELIVERY_BACKOFF_MAX_MS: '100',
    GATEWAY_TIMEOUT_MS: '400',
    DELIVERY_MAX_ATTEMPTS: '3',
    ...extra,
  }).delivery;
}

const pushTo = (token: string, deviceId: number, body: string, idempotencyKey?: string): NewMessage => ({
  channel: 'push',
  recipient: token,
  deviceId,
  content: { title: 'ملاحظة', body, data: { notesType: 'general' } },
  idempotencyKey,
});

describeEachEngine('The delivery worker', ({ engine, freshStoreSettings }) => {
  let store: Store;
  let push: FakeGateway;
  let sms: FakeGateway;
  let workers: DeliveryWorker[] = [];
  let device: { id: number; push_token: string };
  let storeSettings: Record<string, string>;

  beforeEach(async () => {
    storeSettings = freshStoreSettings();
    store = await openTestSchool(storeSettings);
    push = await startFakeGateway();
    sms = await startFakeGateway();
    device = await store.db.selectFrom('devices').select(['id', 'push_token']).orderBy('id').executeTakeFirstOrThrow();
  });

  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
    await push.close();
    await sms.close();
    await store.close();
  });

  const start = (settings: DeliveryConfig, on: Store = store) => {
    const worker = startDeliveryWorker(on, settings, sealer);
    workers.push(worker);
    return worker;
  };
  const message = (id: number) =>
    store.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test('delivers a push in the FCM HTTP v1 shape with the bearer credential, then empties the payload', async () => {
    await enqueueMessages(
      store,
      [pushTo(device.push_token, device.id, 'الواجب: صفحة ٣٢ (page 32)')],
      'ref-1',
      new Date(),
      sealer,
    );
    const queued = await message(1);
    expect(queued.state).toBe('queued');
    expect(queued.payload).not.toContain('page 32');
    start(settingsFor(push, sms));
    const [request] = await push.waitForRequests(1);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v1/projects/demo/messages:send');
    expect(request.headers.authorization).toBe('Bearer push-credential');
    expect(request.headers['idempotency-key']).toBe('ref-1.1');
    expect(JSON.parse(request.body)).toEqual({
      message: {
        token: device.push_token,
        notification: { title: 'ملاحظة', body: 'الواجب: صفحة ٣٢ (page 32)' },
        data: { notesType: 'general' },
      },
    });
    const sent = await eventually(
      () => message(1),
      (row) => row.state === 'sent',
    );
    expect(sent.state).toBe('sent');
    expect(sent).toMatchObject({ attempts: 1, payload: '', last_error: null, lease_owner: null });
  });

  test('delivers an SMS through the body template with the configured Authorization header', async () => {
    await enqueueMessages(
      store,
      [{ channel: 'sms', recipient: '+966500000001', content: { text: 'verification code 482913' } }],
      'ref-2',
      new Date(),
      sealer,
    );
    start(settingsFor(push, sms));
    const [request] = await sms.waitForRequests(1);
    expect(request.url).toBe('/send');
    expect(request.headers.authorization).toBe('Basic c2Nob29sOnNlY3JldA==');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['idempotency-key']).toBe('ref-2.1');
    expect(JSON.parse(request.body)).toEqual({ to: '+966500000001', text: 'verification code 482913' });
    expect(
      (
        await eventually(
          () => message(1),
          (row) => row.state === 'sent',
        )
      ).state,
    ).toBe('sent');
  });

  test('retries a 503 and a time-out with backoff, then records the message sent', async () => {
    push.answerNext({ status: 503, body: 'busy' }, 'hang');
    await enqueueMessages(store, [pushTo(device.push_token, device.id, 'retry me')], 'ref-3', new Date(), sealer);
    start(settingsFor(push, sms));
    await push.waitForRequests(3);
    const sent = await eventually(
      () => message(1),
      (row) => row.state === 'sent',
    );
    expect(sent.state).toBe('sent');
    expect(sent.attempts).toBe(3);
    expect(push.received.map((request) => JSON.parse(request.body).message.notification.body)).toEqual([
      'retry me',
      'retry me',
      'retry me',
    ]);
    // Every attempt carries the same key, so a gateway that honours it delivers the message once.
    expect(push.received.map((request) => request.headers['idempotency-key'])).toEqual([
      'ref-3.1',
      'ref-3.1',
      'ref-3.1',
    ]);
  });

  test('waits at least as long as a 429 Retry-After says before trying again', async () => {
    push.answerNext({ status: 429, headers: { 'Retry-After': '1' }, body: 'slow down' });
    await enqueueMessages(store, [pushTo(device.push_token, device.id, 'patience')], 'ref-4', new Date(), sealer);
    start(settingsFor(push, sms));
    const first = Date.now();
    await push.waitForRequests(1);
    const retrying = await eventually(
      () => message(1),
      (row) => row.state === 'retrying',
    );
    expect(retrying.state).toBe('retrying');
    expect(retrying.last_error).toContain('429');
    await push.waitForRequests(2);
    expect(Date.now() - first).toBeGreaterThanOrEqual(950);
    expect(
      (
        await eventually(
          () => message(1),
          (row) => row.state === 'sent',
        )
      ).state,
    ).toBe('sent');
  });

  test('marks a message failed with its last error after the maximum attempts', async () => {
    push.setDefault({ status: 503, body: 'gateway down for maintenance' });
    await enqueueMessages(store, [pushTo(device.push_token, device.id, 'never')], 'ref-5', new Date(), sealer);
    start(settingsFor(push, sms));
    const failed = await eventually(
      () => message(1),
      (row) => row.state === 'failed',
    );
    expect(failed.state).toBe('failed');
    expect(failed.attempts).toBe(3);
    expect(failed.last_error).toContain('503: gateway down for maintenance');
    expect(failed.payload).toBe('');
    expect(push.received).toHaveLength(3);
  });

  test('fails a push whose token FCM reports unregistered and disables the device, without retrying', async () => {
    push.answerNext({
      status: 404,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } }),
    });
    await enqueueMessages(store, [pushTo(device.push_token, device.id, 'gone')], 'ref-6', new Date(), sealer);
    start(settingsFor(push, sms));
    const failed = await eventually(
      () => message(1),
      (row) => row.state === 'failed',
    );
    expect(failed.state).toBe('failed');
    expect(failed.attempts).toBe(1);
    const disabled = await store.db
      .selectFrom('devices')
      .select('enabled')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(disabled.enabled).toBe(0);
  });

  test('keeps messages of a channel without a gateway queued', async () => {
    await enqueueMessages(
      store,
      [
        { channel: 'sms', recipient: '+966500000002', content: { text: 'verification code 1234' } },
        pushTo(device.push_token, device.id, 'due with it'),
      ],
      'ref-7',
      new Date(),
      sealer,
    );
    start(settingsFor(push, sms, { SMS_GATEWAY_URL: '' }));
    // The push, due at the same moment, is the signal that the worker has looked at both.
    expect(
      (
        await eventually(
          () => message(2),
          (row) => row.state === 'sent',
        )
      ).state,
    ).toBe('sent');
    expect((await message(1)).state).toBe('queued');
  });

  test('stopped by a deadline, a worker abandons its sends and gives back its messages to another', async () => {
    push.setDefault('hang');
    await enqueueMessages(store, [pushTo(device.push_token, device.id, 'held')], 'ref-10', new Date(), sealer);
    // Leases of a minute: a message not given back would wait that long for the second worker.
    const settings = settingsFor(push, sms, { GATEWAY_TIMEOUT_MS: '60000', DELIVERY_LEASE_MS: '60000' });
    const stopping = startDeliveryWorker(store, settings, sealer);
    await push.waitForRequests(1);
    await stopping.stop(Date.now() + 100);
    expect(await message(1)).toMatchObject({ state: 'queued', attempts: 0, lease_owner: null, lease_until: null });

    push.setDefault({ status: 200, body: '{}' });
    start(settings);
    await push.waitForRequests(2);
    const sent = await eventually(
      () => message(1),
      (row) => row.state === 'sent',
    );
    expect(sent.state).toBe('sent');
    expect([sent.state, sent.attempts]).toEqual(['sent', 1]);
  });

  test('queues a message with an idempotency key once', async () => {
    const first = await enqueueMessages(
      store,
      [pushTo(device.push_token, device.id, 'once', 'key-1')],
      'ref-8',
      new Date(),
      sealer,
    );
    const again = await enqueueMessages(
      store,
      [pushTo(device.push_token, device.id, 'once', 'key-1'), pushTo(device.push_token, device.id, 'other', 'key-2')],
      'ref-9',
      new Date(),
      sealer,
    );
    expect([first, again]).toEqual([1, 1]);
    expect(await store.db.selectFrom('outbox_messages').select('id').execute()).toHaveLength(2);
  });

  test(
    'three workers, two in one process and one on a ' +
      `${engine === 'postgres' ? 'connection pool' : 'database connection'} of its own, ` +
      'deliver 150 messages, each exactly once',
    async () => {
      const messages = Array.from({ length: 150 }, (_, index) =>
        pushTo(device.push_token, device.id, `message ${index}`),
      );
      await enqueueMessages(store, messages, 'ref-many', new Date(), sealer);
      const settings = settingsFor(push, sms, { DELIVERY_BATCH: '7' });
      // The third worker opens the store anew, as a second service process would.
      const other = await openTestStore(storeSettings);
      start(settings);
      start(settings);
      const third = startDeliveryWorker(other, settings, sealer);
      await push.waitForRequests(150);
      await third.stop();
      await other.close();
      const unsent = await eventually(
        () => store.db.selectFrom('outbox_messages').select('id').where('state', '!=', 'sent').execute(),
        (rows) => rows.length === 0,
      );
      expect(unsent).toEqual([]);
      // Counted as a gateway that honours Idempotency-Key counts them: a send whose answer came
      // after the worker's time limit is sent again under the same key, and delivered once.
      const delivered = new Map<string, string>();
      for (const request of push.received) {
        const body = JSON.parse(request.body).message.notification.body as string;
        const key = String(request.headers['idempotency-key']);
        expect(delivered.get(key) ?? body).toBe(body);
        delivered.set(key, body);
      }
      expect(delivered.size).toBe(150);
      expect(new Set(delivered.values()).size).toBe(150);
    },
  );
});

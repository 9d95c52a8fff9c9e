import { setTimeout as sleep } from 'node:timers/promises';
import { loadCatalog } from '../../src/contract/catalog';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import { enqueueMessages, type NewMessage } from '../../src/delivery/outbox';
import { payloadSealer } from '../../src/lib/payload-sealer';
import { setLogLevel } from '../../src/lib/log';
import { bindOperations, type Operations } from '../../src/operations/registry';
import { openSchool, type School, type SchoolShared } from '../../src/school/school';
import type { Store } from '../../src/store/open-store';
import { loadConfig } from '../../src/config/service-config';
import { ProcessTelemetry } from '../../src/telemetry/process-telemetry';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { openTestSchool, openTestStore } from '../support/stores';
import { TEST_OUTBOX_KEY } from '../support/test-key';

/**
 * A school is opened on its store by one function and closed by one call, in order: it stops
 * taking work of its own, waits for the calls to end, drains, writes out, and closes its store.
 */

const NODE = 'school-test-node:1';
// The school's own: OUTBOX_KEY is the store's key, which seals the outbox.
const sealer = payloadSealer(Buffer.from(TEST_OUTBOX_KEY, 'hex'));

let operations: Operations;
beforeAll(async () => {
  setLogLevel('silent');
  operations = bindOperations(await loadCatalog(WSDL_DIRECTORY));
});

function sharedParts(settings: Record<string, string>): SchoolShared {
  return {
    config: loadConfig({ LOG_LEVEL: 'silent', DEMO_DATA: 'off', OUTBOX_KEY: TEST_OUTBOX_KEY, ...settings }),
    operations,
    telemetry: new ProcessTelemetry(),
    endpointPathOf: () => '/NotificationNotes.asmx',
    clock: () => new Date(),
    node: () => NODE,
  };
}

const serving = (store: Store) =>
  store.db.selectFrom('service_processes').select('node').where('node', '=', NODE).execute();

describeEachEngine('A school', ({ freshStoreSettings }) => {
  let observer: Store | undefined;
  let push: FakeGateway;
  let school: School | undefined;

  beforeEach(async () => {
    push = await startFakeGateway();
  });

  afterEach(async () => {
    // Closed already when the test got that far: close() answers its first call's promise.
    await school?.close();
    school = undefined;
    await observer?.close();
    observer = undefined;
    await push.close();
  });

  test('closed by one call: it stops claiming before the calls end, drains after them, closes its store', async () => {
    const storeSettings = freshStoreSettings();
    const store = await openTestSchool(storeSettings);
    observer = await openTestStore(storeSettings);
    const opened = await openSchool(
      store,
      sharedParts({
        ...storeSettings,
        PUSH_GATEWAY_URL: `${push.url}/v1/projects/demo/messages:send`,
        PUSH_GATEWAY_TOKEN: 'push-credential',
        DELIVERY_POLL_MS: '20',
      }),
    );
    school = opened;
    opened.serve();
    const watcher = observer;
    expect(
      await eventually(
        () => serving(watcher),
        (rows) => rows.length === 1,
      ),
    ).toHaveLength(1);
    const device = await store.db
      .selectFrom('devices')
      .select(['id', 'push_token'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const pushMessage = (body: string): NewMessage => ({
      channel: 'push',
      recipient: device.push_token,
      deviceId: device.id,
      content: { title: 'note', body, data: { notesType: 'general' } },
    });
    // The worker runs: a message queued while the school serves is claimed and sent.
    await enqueueMessages(store, [pushMessage('before closing')], 'ref-before', new Date(), sealer);
    await push.waitForRequests(1);
    let whileCallsEnded: { serving: number; queued: boolean } | undefined;
    const closing = opened.close({
      deadline: Date.now() + 5_000,
      callsEnded: async () => {
        // A call still running queues a message: the worker, stopped already, does not claim it.
        await enqueueMessages(opened.store, [pushMessage('while closing')], 'ref-while', new Date(), sealer);
        await sleep(300);
        const row = await opened.store.db
          .selectFrom('outbox_messages')
          .select(['state', 'attempts'])
          .where('reference', '=', 'ref-while')
          .executeTakeFirstOrThrow();
        whileCallsEnded = { serving: (await serving(opened.store)).length, queued: row.attempts === 0 };
      },
    });
    expect(opened.close()).toBe(closing);
    await closing;
    // While the calls ended the school still served from an open store, and claimed nothing new.
    expect(whileCallsEnded).toEqual({ serving: 1, queued: true });
    const left = await watcher.db
      .selectFrom('outbox_messages')
      .select(['state', 'attempts', 'lease_owner'])
      .where('reference', '=', 'ref-while')
      .executeTakeFirstOrThrow();
    expect(left).toEqual({ state: 'queued', attempts: 0, lease_owner: null });
    // Drained: its row among the processes serving is gone; and its store is closed.
    expect(await serving(watcher)).toEqual([]);
    await expect(store.db.selectFrom('students').select('id').limit(1).execute()).rejects.toThrow();
  });

  test('a school that cannot open (another key) closes the store it was given', async () => {
    const storeSettings = freshStoreSettings();
    const first = await openSchool(await openTestStore(storeSettings), sharedParts(storeSettings));
    await first.close();
    const store = await openTestStore(storeSettings);
    await expect(openSchool(store, sharedParts({ ...storeSettings, OUTBOX_KEY: '6b'.repeat(32) }))).rejects.toThrow(
      /OUTBOX_KEY/,
    );
    await expect(store.db.selectFrom('students').select('id').limit(1).execute()).rejects.toThrow();
  });
});

import { configureLog } from '../../src/lib/log';
import type { RunningService } from '../../src/service';
import { capturedLog } from '../support/captured-log';
import { makeTestDistrict, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { startTestService } from '../support/service';

/**
 * The delivery worker of a district school names the school in its log lines: an authentication
 * code asked for at the school's path, whose SMS gateway answers 503, is logged as a message to
 * retry with the school's sourcedId. On each engine.
 */

const AUTH = '/AuthCodeSending.asmx';

describeEachEngine('a district school’s delivery log lines', (engine) => {
  let district: TestDistrict;
  let sms: FakeGateway;
  let service: RunningService;

  const outbox = () =>
    withStoreAt(district.storeOf('org-a'), (store) =>
      store.db.selectFrom('outbox_messages').select(['state', 'attempts']).execute(),
    );

  beforeAll(async () => {
    district = await makeTestDistrict(engine.freshStoreSettings(), [
      { entry: { sourcedId: 'org-a', path: '/alpha' }, students: 10, seed: 5 },
    ]);
    sms = await startFakeGateway();
    sms.setDefault({ status: 503 });
    service = await startTestService({
      DEMO_DATA: 'off',
      SMS_GATEWAY_URL: `${sms.url}/sms`,
      DELIVERY_POLL_MS: '20',
      ...district.settings,
    });
  });

  afterAll(async () => {
    configureLog({ logLevel: 'silent', logFormat: 'json' });
    await service?.close();
    await sms?.close();
    district?.remove();
  });

  it('names the school in the line of a message its gateway refused', async () => {
    const { phone } = await withStoreAt(district.storeOf('org-a'), (store) =>
      store.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow(),
    );
    configureLog({ logLevel: 'warn', logFormat: 'json' });
    const lines = await capturedLog(async () => {
      const answer = await callJson(`${service.url}/alpha`, AUTH, 'AuthCode', { code: '482913', phone });
      expect(answer.status).toBe(200);
      await sms.waitForRequests(1);
      const tried = await eventually(outbox, (rows) => rows.some((row) => row.attempts > 0));
      expect(tried).toEqual([expect.objectContaining({ attempts: expect.any(Number) })]);
      // The line follows the outcome's write: a moment for it, within the capture.
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    const delivery = lines
      .map((line) => JSON.parse(line) as { message: string; school?: string; channel?: string })
      .filter((line) => line.message === 'message will be retried');
    expect(delivery.length).toBeGreaterThan(0);
    for (const line of delivery) expect(line).toEqual(expect.objectContaining({ school: 'org-a', channel: 'sms' }));
  });
});

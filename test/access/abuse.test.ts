import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { addTestCaller, BINDINGS, basic, REMOTE_TEST_SETTINGS, remoteCall } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { startTestService } from '../support/service';
import { openTestSchool } from '../support/stores';

/**
 * What a hostile or careless caller cannot do any more: flood the store through refused calls,
 * push without end to one device by changing senderId, or store a megabyte in a parameter.
 */
const AUTH = '/AuthCodeSending.asmx';
const PUSH = '/PushNotificationMobile.asmx';

describeEachEngine('abuse', ({ freshStoreSettings }) => {
  let service: RunningService;
  let school: Store;
  let secret: string;
  beforeAll(async () => {
    const settings = freshStoreSettings();
    school = await openTestSchool(settings);
    service = await startTestService({
      ...settings,
      ...REMOTE_TEST_SETTINGS,
      DEMO_DATA: 'off',
      AUTH_CODE_PER_CALLER_PER_HOUR: '5',
    });
    secret = (await addTestCaller(service.store, { name: 'app', secret: true, operations: ['all'] })) as string;
    await service.readCallers();
  });
  afterAll(async () => {
    await service.close();
    await school.close();
  });

  const call = (path: string, operation: string, parameters: Record<string, string>, binding = 'json' as const) =>
    remoteCall(service.url, path, operation, parameters, binding, { headers: { Authorization: basic('app', secret) } });

  /**
   * Rows of every table a call may write to, once the audit entries held so far are written: the
   * only writes a call leaves for later, so that what a refused call stored shows at once.
   */
  async function rowCounts(): Promise<Record<string, number>> {
    await service.writeAudit();
    const counts: Record<string, number> = {};
    for (const table of [
      'rate_limit_events',
      'outbox_messages',
      'audit_events',
      'audit_subjects',
      'ws_security_nonces',
    ] as const) {
      const row = await school.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      counts[table] = Number(row.count);
    }
    return counts;
  }

  test('a flood of calls refused by a rate limit writes nothing to the store', async () => {
    const codes = Array.from({ length: 5 }, (_, index) => `+1555010${String(2000 + index)}`);
    for (const phone of codes) expect((await call(AUTH, 'AuthCode', { code: '1234', phone })).status).toBe(200);
    const before = await rowCounts();
    const refused = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        call(AUTH, 'AuthCode', { code: '1234', phone: `+1555020${1000 + index}` }),
      ),
    );
    expect(new Set(refused.map((response) => response.status))).toEqual(new Set([500]));
    expect(JSON.parse(refused[0].text).Message).toContain('Too many authentication codes');
    expect(await rowCounts()).toEqual(before);
  });

  test('changing senderId does not get past the limit per device', async () => {
    const push = (senderId: string) =>
      call(PUSH, 'PushNotificationToGateway', {
        applicationID: 'school-app',
        senderId,
        deviceId: 'one-device',
        notes: 'hello',
        notes_type: 't',
      });
    const statuses: number[] = [];
    for (let index = 0; index < 14; index += 1) statuses.push((await push(`sender-${index}`)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    const last = await push('yet-another-sender');
    expect(JSON.parse(last.text).Message).toBe('Too many notifications to this device; try again in a minute.');
  });

  test.each(BINDINGS)(
    'a string parameter over its bound is a Server fault before anything is stored (%s)',
    async (binding) => {
      const before = await rowCounts();
      const answer = await remoteCall(
        service.url,
        PUSH,
        'PushNotificationToGateway',
        { applicationID: 'school-app', senderId: 's', deviceId: 'd', notes: 'n', notes_type: 'x'.repeat(5_000) },
        binding,
        { headers: { Authorization: basic('app', secret) } },
      );
      expect(answer.status).toBe(500);
      expect(answer.text).toContain('notes_type must be at most 256 characters long.');
      if (binding === 'soap11') expect(answer.text).toContain('<faultcode>soap:Server</faultcode>');
      expect(await rowCounts()).toEqual(before);
    },
  );
});

import { flushLog } from '../../src/lib/log';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { markNotesParameters, owedMarkNotes } from '../support/mark-notes';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * AuthCode, PushNotificationToGateway, SendMarkNotes and GetNameAbsenceType on a running service
 * with fake SMS and push gateways on loopback, on both engines: what the callers get, and what
 * arrives at the gateways.
 */

const AUTH = '/AuthCodeSending.asmx';
const PUSH = '/PushNotificationMobile.asmx';
const NOTES = '/NotificationNotes.asmx';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every file below a folder (the store, its WAL, the audit journal's segments...). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describeEachEngine('Notification operations', ({ engine, freshStoreSettings }) => {
  let settings: Record<string, string>;
  let school: Store;
  let push: FakeGateway;
  let sms: FakeGateway;
  let service: RunningService | undefined;

  const start = async (extra: Record<string, string> = {}) => {
    service = await startTestService(
      {
        ...settings,
        DEMO_DATA: 'off',
        CONTRACT: 'typed',
        PUSH_GATEWAY_URL: `${push.url}/v1/projects/school/messages:send`,
        SMS_GATEWAY_URL: `${sms.url}/sms`,
        DELIVERY_POLL_MS: '20',
        ...extra,
      },
      { now: () => new Date(TEST_TODAY.getTime() + (Date.now() % 1000)) },
    );
    return service;
  };
  const outbox = () => school.db.selectFrom('outbox_messages').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    settings = freshStoreSettings();
    school = await openTestSchool(settings);
  });
  afterAll(() => school.close());

  beforeEach(async () => {
    push = await startFakeGateway();
    sms = await startFakeGateway();
    await school.db.deleteFrom('outbox_messages').execute();
    await school.db.deleteFrom('rate_limit_events').execute();
    await school.db.updateTable('devices').set({ enabled: 1 }).execute();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await push.close();
    await sms.close();
  });

  describe('AuthCode', () => {
    test('sends "verification code <code>" to a registered number, given in national form', async () => {
      const guardian = await school.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow();
      const national = `0${guardian.phone.slice(4, 6)} ${guardian.phone.slice(6)}`;
      const { url } = await start();
      const answer = await callJson(url, AUTH, 'AuthCode', { code: '482913', phone: national });
      expect(answer.status).toBe(200);
      expect(answer.body.d).toMatch(UUID);
      const [request] = await sms.waitForRequests(1);
      expect(JSON.parse(request.body)).toEqual({ to: guardian.phone, text: 'verification code 482913' });
    });

    test('accepts and drops an unregistered number with the same kind of answer', async () => {
      const { url } = await start();
      const answer = await callJson(url, AUTH, 'AuthCode', { code: '482913', phone: '+15550100123' });
      expect([answer.status, typeof answer.body.d, UUID.test(String(answer.body.d))]).toEqual([200, 'string', true]);
      expect(await outbox()).toEqual([]);
      // A registered number's code, asked for after it, is the signal that the worker has been by.
      const guardian = await school.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow();
      expect((await callJson(url, AUTH, 'AuthCode', { code: '246810', phone: guardian.phone })).status).toBe(200);
      const [request] = await sms.waitForRequests(1);
      expect(JSON.parse(request.body).to).toBe(guardian.phone);
      expect([sms.received.length, (await outbox()).length]).toEqual([1, 1]);
    });

    test('rehearses an unregistered number without storing it or the code anywhere', async () => {
      const { url } = await start({ SMS_GATEWAY_URL: '' });
      const answer = await callJson(url, AUTH, 'AuthCode', { code: '61527384', phone: '+15550100777' });
      expect(answer.status).toBe(200);
      expect(await outbox()).toEqual([]);
      // One rate-limit event per bucket counted (number, caller), each under a hash of its key.
      const events = await school.db.selectFrom('rate_limit_events').selectAll().execute();
      expect(events).toHaveLength(2);
      expect(JSON.stringify(events)).not.toContain('15550100777');
      if (engine === 'sqlite') {
        // SQLite keeps a statement rolled back in memory only: no file holds the number or the code.
        await service?.close();
        service = undefined;
        for (const file of filesUnder(settings.DATA_DIR)) {
          const bytes = readFileSync(file);
          expect([file, bytes.includes('15550100777'), bytes.includes('61527384')]).toEqual([file, false, false]);
        }
      } else {
        // PostgreSQL keeps the rolled-back row as a dead row: it holds zeros in place of the number.
        await sql`create extension if not exists pageinspect`.execute(school.db);
        const pages = await sql<{ pages: number }>`
          select pg_relation_size('outbox_messages') / current_setting('block_size')::int as pages`.execute(school.db);
        const tuples: Buffer[] = [];
        for (let page = 0; page < Number(pages.rows[0].pages); page += 1) {
          const items = await sql<{ data: Buffer | null }>`
            select t_data as data from heap_page_items(get_raw_page('outbox_messages', ${page}))`.execute(school.db);
          for (const item of items.rows) if (item.data) tuples.push(Buffer.from(item.data));
        }
        expect(tuples.some((tuple) => tuple.includes('0'.repeat('+15550100777'.length)))).toBe(true);
        expect(tuples.some((tuple) => tuple.includes('15550100777') || tuple.includes('61527384'))).toBe(false);
      }
    });

    test.each([
      [{ code: '12', phone: '+966501234567' }, 'code must be 4 to 8 digits'],
      [{ code: '123456789', phone: '+966501234567' }, 'code must be 4 to 8 digits'],
      [{ code: '١٢٣٤', phone: '+966501234567' }, 'code must be 4 to 8 digits'],
      [{ code: '1234; rm', phone: '+966501234567' }, 'code must be 4 to 8 digits'],
      [{ code: '1234', phone: 'call me' }, 'phone is not a phone number'],
    ])('refuses %p with a Server fault', async (parameters, reason) => {
      const { url } = await start();
      const answer = await callJson(url, AUTH, 'AuthCode', parameters);
      expect([answer.status, answer.body.ExceptionType]).toEqual([500, 'System.InvalidOperationException']);
      expect(answer.body.Message).toContain(reason);
      const soap = await soap11(
        url + AUTH,
        `<AuthCode xmlns="${NS}"><code>${parameters.code}</code><phone>${parameters.phone}</phone></AuthCode>`,
        `"${NS}AuthCode"`,
      );
      expect(soap.status).toBe(500);
      expect(soap.text).toContain('<faultcode>soap:Server</faultcode>');
      expect(soap.text).toContain(reason);
    });

    test('limits each number, registered or not, to one a minute', async () => {
      const { url } = await start();
      expect((await callJson(url, AUTH, 'AuthCode', { code: '1111', phone: '+15550100999' })).status).toBe(200);
      const again = await callJson(url, AUTH, 'AuthCode', { code: '2222', phone: '+1 555 010 0999' });
      expect([again.status, again.body.Message]).toEqual([
        500,
        'Too many authentication codes were requested for this phone number; try again later.',
      ]);
      expect((await callJson(url, AUTH, 'AuthCode', { code: '3333', phone: '+15550100998' })).status).toBe(200);
    });

    test('limits each number per hour and each caller address per hour', async () => {
      const { url } = await start({
        AUTH_CODE_PER_PHONE_PER_MINUTE: '100',
        AUTH_CODE_PER_PHONE_PER_HOUR: '2',
        AUTH_CODE_PER_CALLER_PER_HOUR: '4',
      });
      const statuses = [];
      for (let index = 0; index < 3; index += 1)
        statuses.push((await callJson(url, AUTH, 'AuthCode', { code: '1234', phone: '+15550100100' })).status);
      expect(statuses).toEqual([200, 200, 500]);
      // The refused third call counts against nothing: the caller has made three of its four.
      expect((await callJson(url, AUTH, 'AuthCode', { code: '1234', phone: '+15550100101' })).status).toBe(200);
      expect((await callJson(url, AUTH, 'AuthCode', { code: '1234', phone: '+15550100102' })).status).toBe(200);
      const overCaller = await callJson(url, AUTH, 'AuthCode', { code: '1234', phone: '+15550100103' });
      expect([overCaller.status, overCaller.body.Message]).toEqual([
        500,
        'Too many authentication codes were requested from this address; try again later.',
      ]);
    });

    test('never stores or logs the code in clear', async () => {
      const guardian = await school.db
        .selectFrom('guardians')
        .select('phone')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const written: string[] = [];
      const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
      try {
        // No SMS gateway yet: the message waits in the outbox, where the code must not be readable.
        const { url } = await start({ SMS_GATEWAY_URL: '', LOG_LEVEL: 'debug' });
        expect((await callJson(url, AUTH, 'AuthCode', { code: '90817263', phone: guardian.phone })).status).toBe(200);
        const [queued] = await outbox();
        expect(queued.state).toBe('queued');
        expect(JSON.stringify(queued)).not.toContain('90817263');
        if (engine === 'sqlite') {
          for (const file of filesUnder(settings.DATA_DIR)) expect(readFileSync(file).includes('90817263')).toBe(false);
        }
      } finally {
        // The log gathers lines and writes them together: out with them before the spy goes.
        flushLog();
        spy.mockRestore();
      }
      expect(written.join('')).not.toContain('90817263');
    });
  });

  describe('PushNotificationToGateway', () => {
    test('sends the notes to the registered device in the FCM v1 shape', async () => {
      const device = await school.db
        .selectFrom('devices')
        .select(['application_id', 'device_id', 'push_token'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const { url } = await start();
      const answer = await callJson(url, PUSH, 'PushNotificationToGateway', {
        applicationID: device.application_id,
        senderId: 'teacher-7',
        deviceId: device.device_id,
        notes: 'رحلة مدرسية غداً at 8:00',
        notes_type: 'إعلان',
      });
      expect([answer.status, UUID.test(String(answer.body.d))]).toEqual([200, true]);
      const [request] = await push.waitForRequests(1);
      expect(JSON.parse(request.body)).toEqual({
        message: {
          token: device.push_token,
          notification: { title: 'إعلان', body: 'رحلة مدرسية غداً at 8:00' },
          data: { notesType: 'إعلان', senderId: 'teacher-7' },
        },
      });
    });

    test('accepts and drops a push to an unregistered device', async () => {
      const { url } = await start();
      const answer = await callJson(url, PUSH, 'PushNotificationToGateway', {
        applicationID: 'school-app',
        senderId: 's',
        deviceId: 'no-such-device',
        notes: 'hello',
        notes_type: 't',
      });
      expect([answer.status, UUID.test(String(answer.body.d))]).toEqual([200, true]);
      expect(await outbox()).toEqual([]);
      // A push to a registered device, sent after it, is the signal that the worker has been by.
      const device = await school.db
        .selectFrom('devices')
        .select(['application_id', 'device_id'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const signal = await callJson(url, PUSH, 'PushNotificationToGateway', {
        applicationID: device.application_id,
        senderId: 's',
        deviceId: device.device_id,
        notes: 'hello',
        notes_type: 't',
      });
      expect([signal.status, (await outbox()).length]).toEqual([200, 1]);
      await push.waitForRequests(1);
      expect([push.received.length, (await outbox()).length]).toEqual([1, 1]);
    });

    test('refuses empty and overlong notes, and limits each sender', async () => {
      const { url } = await start({ PUSH_NOTES_MAX_LENGTH: '10', PUSH_PER_SENDER_PER_MINUTE: '2' });
      const call = (notes: string, senderId = 'sender') =>
        callJson(url, PUSH, 'PushNotificationToGateway', {
          applicationID: 'school-app',
          senderId,
          deviceId: 'x',
          notes,
          notes_type: 't',
        });
      expect((await call('')).body.Message).toBe('notes must not be empty.');
      expect((await call('ملاحظة طويلة جداً')).body.Message).toBe('notes must be at most 10 characters long.');
      expect([(await call('ملاحظة')).status, (await call('ملاحظة')).status]).toEqual([200, 200]);
      expect((await call('ملاحظة')).body.Message).toBe(
        'Too many notifications from this sender; try again in a minute.',
      );
      expect((await call('ملاحظة', 'another sender')).status).toBe(200);
    });
  });

  describe('SendMarkNotes and GetNameAbsenceType', () => {
    test("notify each guardian device of the students' marks once, however often it is asked", async () => {
      const { assessment, pushes: expected } = await owedMarkNotes(school, 'first');
      const subject = await school.db
        .selectFrom('subjects')
        .select('name_ar')
        .where('id', '=', assessment.subject_id)
        .executeTakeFirstOrThrow();
      expect(expected.length).toBeGreaterThan(0);
      const { url } = await start();
      const parameters = markNotesParameters(assessment, `${url}/`);
      const first = await callJson(url, NOTES, 'SendMarkNotes', parameters);
      expect(first).toEqual({ status: 200, body: { d: expected.length } });
      const requests = await push.waitForRequests(expected.length);
      const arrived = requests
        .map((request) => JSON.parse(request.body).message)
        .map((message) => `${message.token} ${message.notification.body}`)
        .sort();
      expect(arrived).toEqual(
        expected.map((row) => `${row.push_token} ${subject.name_ar}: ${row.score}/${assessment.max_score}`).sort(),
      );
      expect(await callJson(url, NOTES, 'SendMarkNotes', parameters)).toEqual({ status: 200, body: { d: 0 } });
      expect(
        await callJson(url, NOTES, 'SendMarkNotes', { ...parameters, id_class: String(assessment.class_id + 1) }),
      ).toEqual({ status: 200, body: { d: 0 } });
    });

    test('count pushes to a device together, from PushNotificationToGateway and SendMarkNotes', async () => {
      const { assessment, pushes: devices } = await owedMarkNotes(school, 'first');
      expect(devices.length).toBeGreaterThan(1);
      const { url } = await start({ PUSH_PER_DEVICE_PER_MINUTE: '1' });
      const [used] = devices;
      const pushed = await callJson(url, PUSH, 'PushNotificationToGateway', {
        applicationID: used.application_id,
        senderId: 'teacher',
        deviceId: used.device_id,
        notes: 'hello',
        notes_type: 't',
      });
      expect(pushed.status).toBe(200);
      const parameters = markNotesParameters(assessment, `${url}/`);
      // The device already had its one push of the minute: its mark waits, the others go.
      const distinct = new Set(devices.map((device) => `${device.application_id} ${device.device_id}`));
      expect(await callJson(url, NOTES, 'SendMarkNotes', parameters)).toEqual({
        status: 200,
        body: { d: distinct.size - 1 },
      });
    });

    test("give the absence type's name in this school; an unknown id gives an empty result", async () => {
      const type = await school.db
        .selectFrom('absence_types')
        .select(['id', 'name_ar'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const { url } = await start();
      expect(await callJson(url, NOTES, 'GetNameAbsenceType', { id: String(type.id), baseUrlSchool: url })).toEqual({
        status: 200,
        body: { d: type.name_ar },
      });
      expect(await callJson(url, NOTES, 'GetNameAbsenceType', { id: '99999', baseUrlSchool: url })).toEqual({
        status: 200,
        body: { d: null },
      });
    });

    test('refuse a baseUrlSchool that is not registered, without ever calling it', async () => {
      const bystander = await startFakeGateway();
      try {
        const { url } = await start();
        for (const operation of ['GetNameAbsenceType', 'SendMarkNotes']) {
          const answer = await callJson(url, NOTES, operation, {
            id: '1',
            id_class: '1',
            baseUrlSchool: bystander.url,
          });
          expect([answer.status, answer.body.Message]).toEqual([
            500,
            `baseUrlSchool is not a registered school: "${bystander.url}".`,
          ]);
        }
        // A forward is made within the call, so it would have reached the bystander before the answer.
        expect(bystander.received).toHaveLength(0);
      } finally {
        await bystander.close();
      }
    });
  });
});

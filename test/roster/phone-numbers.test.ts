import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { loadConfig } from '../../src/config/service-config';
import { smsGateway } from '../../src/delivery/sms-gateway';
import type { RunningService } from '../../src/service';
import type { ClaimedMessage } from '../../src/store/queries/outbox';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine } from '../support/engines';
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { positionOf, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { get } from '../support/soap';
import { openTestStore, TEST_TODAY } from '../support/stores';

/**
 * Phone numbers are read for the school's region (DEFAULT_COUNTRY_CODE 966: Saudi Arabia): a valid
 * one, national or international, is stored in E.164; any other (a foreign number written without
 * its country code, a malformed one) is kept as written with a warning at its row, served and
 * exported as written, and never texted.
 */
const PHONES = [
  // sourcedId, column, as written, as stored
  ['s1', 'phone', '(950) 336 6601', '(950) 336 6601'],
  ['s2', 'phone', '0551112222', '+966551112222'],
  ['t-2', 'sms', '+966 50 765 4321', '+966507654321'],
  ['g1', 'phone', '+44 20 7946 0958', '+442079460958'],
  ['g2', 'phone', '05-12', '05-12'],
] as const;
const KEPT_AS_WRITTEN = ['s1', 'g2'];

function schoolWithPhones() {
  let rows = smallSchool();
  for (const [sourcedId, column, written] of PHONES) rows = withValue(rows, 'users', sourcedId, column, written);
  return rows;
}

describeEachEngine('phone numbers read for the school region', (engine) => {
  const { exported } = exportingStores(engine);
  let settings: Record<string, string>;
  let service: RunningService;
  let sms: FakeGateway;
  let warnings: string[];
  const ids = new Map<string, number>();
  const stored = new Map<string, string | null>();

  beforeAll(async () => {
    settings = engine.freshStoreSettings();
    sms = await startFakeGateway();
    const store = await openTestStore(settings);
    try {
      const outcome = await importBundle(store, writeBundle(schoolWithPhones()));
      expect(problemsOf(outcome)).toEqual([]);
      warnings = outcome.problems
        .warnings()
        .warnings.filter((warning) => warning.kind === 'phone-kept-as-written')
        .map((warning) => `${warning.file}:${warning.line}:${warning.column} ${warning.message}`);
      for (const row of await store.db.selectFrom('roster_ids').select(['kind', 'sourced_id', 'id']).execute())
        ids.set(`${row.kind} ${row.sourced_id}`, row.id);
      for (const table of ['students', 'teachers', 'guardians'] as const) {
        for (const row of await store.db.selectFrom(table).select(['id', 'phone']).execute())
          stored.set(`${table} ${row.id}`, row.phone);
      }
    } finally {
      await store.close();
    }
    service = await startTestService(
      {
        ...settings,
        CONTRACT: 'typed',
        SMS_GATEWAY_URL: `${sms.url}/sms`,
        DELIVERY_POLL_MS: '20',
        // '(950) 336 6601' and '+9669503366601' are one number to the rate limits.
        AUTH_CODE_PER_PHONE_PER_MINUTE: '10',
      },
      { now: () => TEST_TODAY },
    );
  });
  afterAll(async () => {
    await service?.close();
    await sms?.close();
  });

  const tableOf = (sourcedId: string) =>
    sourcedId.startsWith('s') ? 'students' : sourcedId.startsWith('t') ? 'teachers' : 'guardians';
  const storedPhone = (sourcedId: string) =>
    stored.get(`${tableOf(sourcedId)} ${ids.get(`${tableOf(sourcedId)} ${sourcedId}`)}`);

  test('a valid number is stored in E.164, any other as written, with a warning at its row', () => {
    expect(PHONES.map(([sourcedId]) => [sourcedId, storedPhone(sourcedId)])).toEqual(
      PHONES.map(([sourcedId, , , expected]) => [sourcedId, expected]),
    );
    const rows = schoolWithPhones();
    expect(warnings).toEqual(
      KEPT_AS_WRITTEN.map((sourcedId) => {
        const at = positionOf(rows, 'users', sourcedId, 'phone');
        return (
          `users.csv:${at.line}:${at.column} phone is no valid number for the school's region ` +
          '(SA, DEFAULT_COUNTRY_CODE 966): kept as written, never texted'
        );
      }),
    );
  });

  test('GetStudentInfoById serves the number as stored, typed and JSON', async () => {
    const info = '/GetStudentsInformation.asmx';
    const foreign = String(ids.get('students s1'));
    const json = await callJson(service.url, info, 'GetStudentInfoById', { StudentId: foreign });
    expect(json.body.d).toMatchObject({ Phone: '(950) 336 6601' });
    const typed = await get(`${service.url}${info}/GetStudentInfoById?StudentId=${foreign}`);
    expect(typed.text).toContain('<Phone>(950) 336 6601</Phone>');
    const national = await callJson(service.url, info, 'GetStudentInfoById', {
      StudentId: String(ids.get('students s2')),
    });
    expect(national.body.d).toMatchObject({ Phone: '+966551112222' });
  });

  test('AuthCode never texts a number kept as written, nor the Saudi number it would once have become', async () => {
    for (const phone of ['(950) 336 6601', '+9669503366601', '05-12']) {
      const answer = await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', { code: '4821', phone });
      expect(answer.status).toBe(200);
    }
    // A valid registered number asked for after them is texted: the worker has been by.
    const answer = await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', {
      code: '9317',
      phone: '0551112222',
    });
    expect(answer.status).toBe(200);
    const [request] = await sms.waitForRequests(1);
    expect(JSON.parse(request.body)).toEqual({ to: '+966551112222', text: 'verification code 9317' });
    expect(sms.received).toHaveLength(1);
  });

  test('the export gives back what is stored', async () => {
    const store = await openTestStore(settings);
    try {
      // Without the fields the import kept, the export writes the store's own values.
      await store.db.deleteFrom('roster_fields').execute();
      const path = await exported(store);
      const users = parse(readFileSync(join(path, 'users.csv')), { columns: true, bom: true }) as Array<
        Record<string, string>
      >;
      const phoneOf = (sourcedId: string) => users.find((user) => user.sourcedId === sourcedId)?.phone;
      expect(PHONES.map(([sourcedId]) => [sourcedId, phoneOf(sourcedId)])).toEqual(
        PHONES.map(([sourcedId, , , expected]) => [sourcedId, expected]),
      );
    } finally {
      await store.close();
    }
  });
});

describe('the SMS gateway', () => {
  let gateway: FakeGateway;
  beforeAll(async () => {
    gateway = await startFakeGateway();
  });
  afterAll(() => gateway.close());

  test('sends to an E.164 number only: any other fails, naming why, and nothing reaches the gateway', async () => {
    const settings = loadConfig({ SMS_GATEWAY_URL: `${gateway.url}/sms` }).delivery.sms;
    const sender = smsGateway({ ...settings, url: `${gateway.url}/sms` }, 5_000, () => new Date());
    const message = (recipient: string): ClaimedMessage => ({
      id: 1,
      reference: 'ref-1',
      channel: 'sms',
      recipient,
      device_id: null,
      payload: '',
      attempts: 0,
    });
    expect(await sender.send(message('(950) 336 6601'), { text: 'verification code 1234' })).toEqual({
      kind: 'failed',
      error: 'the recipient is no E.164 phone number: not sent',
    });
    expect(gateway.received).toEqual([]);
    expect(await sender.send(message('+966551112222'), { text: 'verification code 1234' })).toEqual({ kind: 'sent' });
    expect(gateway.received).toHaveLength(1);
  });
});

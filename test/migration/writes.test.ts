import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { eventually } from '../support/eventually';
import { callJson } from '../support/json-calls';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A write (AuthCode to a number in the school directory, which this service queues as an SMS)
 * acts exactly once in every route: here (an outbox row) or at the legacy service (a request to
 * the stand-in), never both. In shadow this service rehearses it: nothing stored, not even the
 * rate limits' count. And a difference in a student's name or birth date is kept masked.
 */
describe('Routes on the test school: writes act exactly once, personal data is masked', () => {
  let settings: Record<string, string>;
  let school: Store;
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;
  let phone: string;

  const start = (route: string) =>
    startTestService(
      {
        ...settings,
        DEMO_DATA: 'off',
        DELIVERY_WORKER: 'off',
        LEGACY_URL: legacy.url,
        SHADOW_FLUSH_MS: '20',
        ROUTES: `AuthCode=${route}`,
      },
      { now: () => TEST_TODAY },
    );
  const authCode = (url: string) => callJson(url, '/AuthCodeSending.asmx', 'AuthCode', { code: '482913', phone });
  const outboxRows = async () => (await school.db.selectFrom('outbox_messages').selectAll().execute()).length;
  const limitRows = async () => (await school.db.selectFrom('rate_limit_events').selectAll().execute()).length;
  const report = () => shadowReport(school, { operation: 'AuthCode' });
  const auditedCalls = async () => {
    const rows = await school.db
      .selectFrom('audit_events')
      .select('calls')
      .where('operation', '=', 'AuthCode')
      .execute();
    return rows.reduce((sum, row) => sum + row.calls, 0);
  };
  let auditedBefore = 0;
  /** Stops the service, which writes out its audit trail, and gives how many AuthCode calls it recorded. */
  const auditedByService = async () => {
    await service?.close();
    service = undefined;
    return (await auditedCalls()) - auditedBefore;
  };

  beforeAll(async () => {
    settings = { DATA_DIR: mkdtempSync(join(tmpdir(), 'school-store-')) };
    school = await openTestSchool(settings);
    phone = (await school.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow()).phone;
  });
  afterAll(() => school.close());
  beforeEach(async () => {
    legacy = await startLegacyStandIn();
    await school.db.deleteFrom('outbox_messages').execute();
    await school.db.deleteFrom('rate_limit_events').execute();
    await school.db.deleteFrom('shadow_comparisons').execute();
    await school.db.deleteFrom('shadow_differences').execute();
    auditedBefore = await auditedCalls();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  test('local: queued here, the legacy service not asked', async () => {
    service = await start('local');
    expect((await authCode(service.url)).status).toBe(200);
    expect(await outboxRows()).toBe(1);
    expect(legacy.requests).toHaveLength(0);
    expect(await auditedByService()).toBe(1);
  });

  test('legacy: sent to the legacy service once, nothing queued here', async () => {
    service = await start('legacy');
    const answer = await authCode(service.url);
    expect(answer.body.d).toBe('legacy-reference');
    expect(legacy.requestsFor('AuthCode')).toHaveLength(1);
    expect(await outboxRows()).toBe(0);
    expect(await auditedByService()).toBe(1);
  });

  test('shadow: the legacy service acts; here it is rehearsed and compared, storing nothing', async () => {
    service = await start('shadow');
    const answer = await authCode(service.url);
    expect(answer.body.d).toBe('legacy-reference');
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    // The rehearsal ran in full: its reference differs from the legacy one, so the two were compared.
    expect(found.operations).toEqual([expect.objectContaining({ binding: 'json', compared: 1, different: 1 })]);
    expect(legacy.requestsFor('AuthCode')).toHaveLength(1);
    expect(await outboxRows()).toBe(0);
    expect(await limitRows()).toBe(0);
    expect(await auditedByService()).toBe(1);
  });

  test('canary: queued here, never sent to the legacy service, counted as not compared', async () => {
    service = await start('canary');
    expect((await authCode(service.url)).status).toBe(200);
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    expect(found.operations).toEqual([expect.objectContaining({ notCompared: 1, compared: 0 })]);
    expect(await outboxRows()).toBe(1);
    expect(legacy.requests).toHaveLength(0);
    expect(await auditedByService()).toBe(1);
  });

  test("personal data in a difference's example is masked: first letter and length", async () => {
    service = await startTestService(
      {
        ...settings,
        DEMO_DATA: 'off',
        LEGACY_URL: legacy.url,
        SHADOW_FLUSH_MS: '20',
        ROUTES: 'GetStudentInfoById=canary',
      },
      { now: () => TEST_TODAY },
    );
    const info = () =>
      callJson((service as RunningService).url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', {
        StudentId: '1',
      });
    const here = (await info()).body.d as { NameEn: string; BirthDate: string };
    const legacyAnswer = { d: { ...here, NameEn: 'Someone Else', BirthDate: '2011-01-01' } };
    legacy.documents.set('GetStudentInfoById json', {
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(legacyAnswer),
    });
    await school.db.deleteFrom('shadow_differences').execute();
    await info();
    const report = () => shadowReport(school, { operation: 'GetStudentInfoById' });
    const found = await eventually(report, (figures) => figures.differences.some((d) => d.path === '/d/NameEn'));
    const byPath = Object.fromEntries(found.differences.map((d) => [d.path, [d.localExample, d.legacyExample]]));
    expect(byPath['/d/NameEn']).toEqual([`${here.NameEn[0]}…(${here.NameEn.length})`, 'S…(12)']);
    expect(byPath['/d/BirthDate']).toEqual([`${here.BirthDate[0]}…(10)`, '2…(10)']);
  });

  test('a rehearsal still refuses what a real call would: a bad code is a rule error here too', async () => {
    service = await start('shadow');
    const answer = await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', { code: 'x', phone });
    expect(answer.body.d).toBe('legacy-reference');
    const found = await eventually(report, (figures) => figures.differences.length > 0);
    expect(found.differences.map((difference) => difference.path)).toContain('(status)');
    expect(await limitRows()).toBe(0);
  });
});

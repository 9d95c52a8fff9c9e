import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { markNotesParameters, owedMarkNotes } from '../support/mark-notes';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Two instances of the service on loopback: school A, and school B registered as A's partner.
 * Calls to A for B's address run at B, through B's registered address only.
 */

const NOTES = '/NotificationNotes.asmx';
const SECRET = 'shared-federation-secret-0123';

describe('Federation with a partner school', () => {
  let folder: string;
  let schoolB: Store;
  let pushB: FakeGateway;
  let pushA: FakeGateway;
  let b: RunningService;
  let a: RunningService;
  const unregistered: FakeGateway[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-b-'));
    schoolB = await openTestSchool({ DATA_DIR: folder });
    await schoolB.db
      .updateTable('absence_types')
      .set({ name_ar: 'غياب بعذر — المدرسة ب' })
      .where('id', '=', 1)
      .execute();
    pushA = await startFakeGateway();
    pushB = await startFakeGateway();
    const hanging = await startFakeGateway();
    hanging.setDefault('hang');
    const redirecting = await startFakeGateway();
    const target = await startFakeGateway();
    redirecting.setDefault({
      status: 302,
      headers: { Location: `${target.url}/NotificationNotes.asmx/GetNameAbsenceType` },
    });
    const flooding = await startFakeGateway();
    flooding.setDefault({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ d: 'x'.repeat(200_000) }),
    });
    unregistered.push(hanging, redirecting, target, flooding);
    const now = { now: () => TEST_TODAY };
    b = await startTestService(
      {
        DATA_DIR: folder,
        DEMO_DATA: 'off',
        CONTRACT: 'typed',
        FEDERATION_SECRET: SECRET,
        PUSH_GATEWAY_URL: `${pushB.url}/send`,
        DELIVERY_POLL_MS: '20',
      },
      now,
    );
    a = await startTestService(
      {
        PARTNER_SCHOOLS: [b.url, hanging.url, redirecting.url, flooding.url].join(','),
        FEDERATION_SECRET: SECRET,
        // Room for B's own answers on a busy machine; the hanging partner costs its test this long.
        FORWARD_TIMEOUT_MS: '3000',
        PUSH_GATEWAY_URL: `${pushA.url}/send`,
        DELIVERY_POLL_MS: '20',
      },
      now,
    );
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schoolB?.close();
    for (const gateway of [pushA, pushB, ...unregistered]) await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test("GetNameAbsenceType through A for B's address answers with B's data", async () => {
    expect(await callJson(a.url, NOTES, 'GetNameAbsenceType', { id: '1', baseUrlSchool: `${b.url}/` })).toEqual({
      status: 200,
      body: { d: 'غياب بعذر — المدرسة ب' },
    });
    expect((await callJson(a.url, NOTES, 'GetNameAbsenceType', { id: '1', baseUrlSchool: a.url })).body.d).not.toBe(
      'غياب بعذر — المدرسة ب',
    );
  });

  test("SendMarkNotes through A queues at B and delivers through B's gateway", async () => {
    const { assessment, pushes: devices } = await owedMarkNotes(schoolB, 'last');
    const parameters = markNotesParameters(assessment, b.url);
    expect(await callJson(a.url, NOTES, 'SendMarkNotes', parameters)).toEqual({
      status: 200,
      body: { d: devices.length },
    });
    const requests = await pushB.waitForRequests(devices.length);
    expect(requests.map((request) => JSON.parse(request.body).message.token).sort()).toEqual(
      devices.map((row) => row.push_token).sort(),
    );
    expect(pushA.received).toHaveLength(0);
    expect(await callJson(a.url, NOTES, 'SendMarkNotes', parameters)).toEqual({ status: 200, body: { d: 0 } });
  });

  test('B refuses a forwarded call with a wrong secret', async () => {
    const response = await fetch(`${b.url}${NOTES}/GetNameAbsenceType`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-School-Federation': 'not-the-secret' },
      body: JSON.stringify({ id: '1', baseUrlSchool: b.url }),
    });
    expect([response.status, ((await response.json()) as { Message: string }).Message]).toEqual([
      500,
      'The federation credential of this forwarded call is not accepted.',
    ]);
  });

  test('a partner that does not answer in time is a Server fault, not a hang', async () => {
    const started = Date.now();
    const answer = await callJson(a.url, NOTES, 'GetNameAbsenceType', { id: '1', baseUrlSchool: unregistered[0].url });
    expect([answer.status, answer.body.Message]).toEqual([
      500,
      `The partner school at ${unregistered[0].url} could not be reached: no answer within 3000 ms.`,
    ]);
    // The partner never answers: without the limit the call would wait for jest's own time-out.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test("a partner's redirect is not followed", async () => {
    const answer = await callJson(a.url, NOTES, 'GetNameAbsenceType', { id: '1', baseUrlSchool: unregistered[1].url });
    expect(answer.status).toBe(500);
    expect(answer.body.Message).toContain('a redirect, which is not followed');
    expect(unregistered[2].received).toHaveLength(0);
  });

  test("a partner's answer larger than the cap is refused", async () => {
    const answer = await callJson(a.url, NOTES, 'GetNameAbsenceType', { id: '1', baseUrlSchool: unregistered[3].url });
    expect([answer.status, answer.body.Message]).toEqual([
      500,
      `The partner school at ${unregistered[3].url} could not be reached: the response is larger than 65536 bytes.`,
    ]);
  });
});

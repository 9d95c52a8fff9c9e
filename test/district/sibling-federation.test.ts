import type { RunningService } from '../../src/service';
import { REMOTE_TEST_SETTINGS } from '../support/callers';
import { makeTestDistrict, outboxSize, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { type FakeGateway, startFakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { markNotesParameters, owedMarkNotes } from '../support/mark-notes';
import { startTestService } from '../support/service';
import { TEST_TODAY } from '../support/stores';

/**
 * SendMarkNotes and GetNameAbsenceType at one school of a district for another school of the same
 * deployment are served in this process: the deployment's address (PUBLIC_BASE_URL) is a stand-in
 * that would see any request forwarded over HTTP, and is also listed as a partner, so that a call
 * that left the process would reach it. It sees none, and the answer is the one the other school
 * gives a partner's forwarded call.
 */

const NOTES = '/NotificationNotes.asmx';
const SECRET = 'district-federation-secret-0123';
const NAME_AT_B = 'غياب بعذر — المدرسة ب';

describeEachEngine('calls for another school of the district, served in process', (engine) => {
  let district: TestDistrict;
  let standIn: FakeGateway;
  let service: RunningService;
  let addressOfB: string;

  beforeAll(async () => {
    standIn = await startFakeGateway();
    addressOfB = `${standIn.url}/beta`;
    district = await makeTestDistrict(engine.freshStoreSettings(), [
      { entry: { sourcedId: 'org-a', path: '/alpha' }, students: 40, seed: 7 },
      {
        entry: { sourcedId: 'org-b', path: '/beta' },
        students: 30,
        seed: 11,
        prepare: async (store) => {
          await store.db.updateTable('absence_types').set({ name_ar: NAME_AT_B }).where('id', '=', 1).execute();
        },
      },
    ]);
    service = await startTestService(
      {
        ...REMOTE_TEST_SETTINGS,
        ...district.settings,
        CONTRACT: 'typed',
        DEMO_DATA: 'off',
        PUBLIC_BASE_URL: standIn.url,
        PARTNER_SCHOOLS: addressOfB,
        FEDERATION_SECRET: SECRET,
        DELIVERY_WORKER: 'off',
      },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    await standIn?.close();
    district?.remove();
  });

  /** B's answer to the call a partner's instance forwards: what forwarding would give. */
  async function forwardedToB(operation: string, parameters: Record<string, string>) {
    const response = await fetch(`${service.url}/beta${NOTES}/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-School-Federation': SECRET },
      body: JSON.stringify(parameters),
    });
    return { status: response.status, body: await response.json() };
  }

  it('answers GetNameAbsenceType at A for B with B’s name, as forwarding would, with no request sent', async () => {
    const parameters = { id: '1', baseUrlSchool: `${addressOfB}/` };
    const atA = await callJson(service.url, `/alpha${NOTES}`, 'GetNameAbsenceType', parameters);
    expect(atA).toEqual({ status: 200, body: { d: NAME_AT_B } });
    expect(atA).toEqual(await forwardedToB('GetNameAbsenceType', { id: '1', baseUrlSchool: addressOfB }));
    // A's own name is another: the answer came from B's store.
    const own = await callJson(service.url, `/alpha${NOTES}`, 'GetNameAbsenceType', {
      id: '1',
      baseUrlSchool: `${standIn.url}/alpha`,
    });
    expect(own.body.d).not.toBe(NAME_AT_B);
    expect(standIn.received).toHaveLength(0);
  });

  it('queues SendMarkNotes at A for B in B’s outbox, none in A’s, with no request sent', async () => {
    const { assessment, pushes } = await withStoreAt(district.storeOf('org-b'), (store) =>
      owedMarkNotes(store, 'last'),
    );
    expect(pushes.length).toBeGreaterThan(0);
    const [beforeA, beforeB] = await Promise.all([
      outboxSize(district.storeOf('org-a')),
      outboxSize(district.storeOf('org-b')),
    ]);
    const answer = await callJson(
      service.url,
      `/alpha${NOTES}`,
      'SendMarkNotes',
      markNotesParameters(assessment, addressOfB),
    );
    expect(answer).toEqual({ status: 200, body: { d: pushes.length } });
    expect(await outboxSize(district.storeOf('org-b'))).toBe(beforeB + pushes.length);
    expect(await outboxSize(district.storeOf('org-a'))).toBe(beforeA);
    // Sent again, B has queued them already: 0, as B answers a partner's second call.
    const again = await callJson(
      service.url,
      `/alpha${NOTES}`,
      'SendMarkNotes',
      markNotesParameters(assessment, addressOfB),
    );
    expect(again).toEqual(await forwardedToB('SendMarkNotes', markNotesParameters(assessment, addressOfB)));
    expect(again.body.d).toBe(0);
    expect(standIn.received).toHaveLength(0);
  });

  it('refuses, as for a partner, a forwarded call at A for B: no second hop', async () => {
    expect(await forwardedToBThroughA()).toEqual({
      status: 500,
      message: 'A forwarded call must be for the school that receives it.',
    });
    expect(standIn.received).toHaveLength(0);
  });

  async function forwardedToBThroughA() {
    const response = await fetch(`${service.url}/alpha${NOTES}/GetNameAbsenceType`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-School-Federation': SECRET },
      body: JSON.stringify({ id: '1', baseUrlSchool: addressOfB }),
    });
    return { status: response.status, message: ((await response.json()) as { Message: string }).Message };
  }
});

import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { REMOTE_TEST_SETTINGS } from '../support/callers';
import { makeTestDistrict, outboxSize, type TestDistrict, withStoreAt } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { markNotesParameters, owedMarkNotes } from '../support/mark-notes';
import { freePort } from '../support/processes';
import { startTestService } from '../support/service';
import { TEST_TODAY } from '../support/stores';

/**
 * The deployment's own school (the bare paths) and the district's registered schools reach each
 * other in this process for SendMarkNotes and GetNameAbsenceType. The deployment's address
 * (PUBLIC_BASE_URL) is a loopback port nothing listens on, and every school's address is also
 * listed as a partner: a call that left the process would fail to connect, so an answer from the
 * other school's store can only have come in process. The deployment's own school is also named by
 * its SCHOOL_BASE_URL, which a registered school does not take for its own address.
 */

const NOTES = '/NotificationNotes.asmx';
const SECRET = 'district-federation-secret-0123';
const NAME_AT_OWN = 'غياب بعذر — مدرسة النشر';
const NAME_AT_B = 'غياب بعذر — المدرسة ب';
/** The deployment's own school's address as its clients know it: no such host answers. */
const OWN_SCHOOL_URL = 'http://own-school.example.test';

/** Names absence type 1 of a school's store: the name tells which store answered. */
function namedAbsenceType(name: string) {
  return async (store: Store) => {
    await store.db.updateTable('absence_types').set({ name_ar: name }).where('id', '=', 1).execute();
  };
}

describeEachEngine('calls between the deployment’s own school and a district school, served in process', (engine) => {
  let district: TestDistrict;
  let service: RunningService;
  let deploymentUrl: string;

  beforeAll(async () => {
    deploymentUrl = `http://127.0.0.1:${await freePort()}`;
    district = await makeTestDistrict(
      engine.freshStoreSettings(),
      [
        { entry: { sourcedId: 'org-a', path: '/alpha' }, students: 30, seed: 7 },
        { entry: { sourcedId: 'org-b', path: '/beta' }, students: 30, seed: 11, prepare: namedAbsenceType(NAME_AT_B) },
      ],
      { students: 30, seed: 5, prepare: namedAbsenceType(NAME_AT_OWN) },
    );
    service = await startTestService(
      {
        ...REMOTE_TEST_SETTINGS,
        ...district.settings,
        CONTRACT: 'typed',
        DEMO_DATA: 'off',
        PUBLIC_BASE_URL: deploymentUrl,
        SCHOOL_BASE_URL: OWN_SCHOOL_URL,
        PARTNER_SCHOOLS: `${deploymentUrl},${deploymentUrl}/beta`,
        FEDERATION_SECRET: SECRET,
        DELIVERY_WORKER: 'off',
      },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    district?.remove();
  });

  /** The call a partner's instance forwards, sent to `path`: what forwarding would be answered. */
  async function forwarded(path: string, operation: string, parameters: Record<string, string>) {
    const response = await fetch(`${service.url}${path}${NOTES}/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-School-Federation': SECRET },
      body: JSON.stringify(parameters),
    });
    return { status: response.status, body: await response.json() };
  }

  it('answers GetNameAbsenceType at a district school for the deployment’s own school from its store', async () => {
    for (const baseUrlSchool of [`${deploymentUrl}/`, OWN_SCHOOL_URL]) {
      const atA = await callJson(service.url, `/alpha${NOTES}`, 'GetNameAbsenceType', { id: '1', baseUrlSchool });
      expect(atA).toEqual({ status: 200, body: { d: NAME_AT_OWN } });
    }
    expect(await forwarded('', 'GetNameAbsenceType', { id: '1', baseUrlSchool: OWN_SCHOOL_URL })).toEqual({
      status: 200,
      body: { d: NAME_AT_OWN },
    });
  });

  it('answers GetNameAbsenceType at the bare paths for a district school from that school’s store', async () => {
    const atOwn = await callJson(service.url, NOTES, 'GetNameAbsenceType', {
      id: '1',
      baseUrlSchool: `${deploymentUrl}/beta`,
    });
    expect(atOwn).toEqual({ status: 200, body: { d: NAME_AT_B } });
    expect(atOwn).toEqual(
      await forwarded('/beta', 'GetNameAbsenceType', { id: '1', baseUrlSchool: `${deploymentUrl}/beta` }),
    );
  });

  it('queues SendMarkNotes at the bare paths in a district school’s outbox, and the other way round', async () => {
    const ways = [
      { at: '', to: district.storeOf('org-b'), from: district.deployment, baseUrlSchool: `${deploymentUrl}/beta` },
      { at: '/alpha', to: district.deployment, from: district.storeOf('org-a'), baseUrlSchool: OWN_SCHOOL_URL },
    ];
    for (const { at, to, from, baseUrlSchool } of ways) {
      const { assessment, pushes } = await withStoreAt(to, (store) => owedMarkNotes(store, 'last'));
      expect(pushes.length).toBeGreaterThan(0);
      const [beforeTo, beforeFrom] = await Promise.all([outboxSize(to), outboxSize(from)]);
      const parameters = markNotesParameters(assessment, baseUrlSchool);
      const answer = await callJson(service.url, `${at}${NOTES}`, 'SendMarkNotes', parameters);
      expect(answer).toEqual({ status: 200, body: { d: pushes.length } });
      expect(await outboxSize(to)).toBe(beforeTo + pushes.length);
      expect(await outboxSize(from)).toBe(beforeFrom);
    }
  });

  it('refuses, as for a partner, a call forwarded to the bare paths for a district school: no second hop', async () => {
    const answer = await forwarded('', 'GetNameAbsenceType', { id: '1', baseUrlSchool: `${deploymentUrl}/beta` });
    expect(answer).toEqual({
      status: 500,
      body: expect.objectContaining({ Message: 'A forwarded call must be for the school that receives it.' }),
    });
  });
});

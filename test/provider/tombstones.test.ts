import { sql } from 'kysely';
import type { RunningService } from '../../src/service';
import { eraseRows, planErasure } from '../../src/store/privacy/subject-erasure';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, ROSTERING, startProviderService, tokenFor, withToken } from '../support/provider-client';
import { ARABIC_STUDENT, deltaBundle, smallSchool } from '../support/roster-bundle';

/**
 * A delta consumer, from another address on both engines, learns of the records a delta import
 * deleted and of a student erased: each is in its collection's changes as `tobedeleted`, with its
 * sourcedId and the time it went alone, for ONEROSTER_TOMBSTONE_DAYS; a plain GET of it is 404,
 * and a caller scoped to a teacher is told of none.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const changesSince = (since: string) => `filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`;

describeEachEngine('deleted records read as changes', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  let token: string;
  let storeSettings: Record<string, string>;
  const school = smallSchool();
  const get = async (path: string, as = token) => {
    const answer = await withToken(service, as, path);
    return { status: answer.status, text: answer.text, body: answer.status === 200 ? JSON.parse(answer.text) : {} };
  };
  const rowOf = (rows: ReadonlyArray<Record<string, string>>, sourcedId: string) =>
    rows.find((row) => row.sourcedId === sourcedId) ?? {};
  const deleted = (records: Array<Record<string, unknown>>) =>
    records.filter((record) => record.status === 'tobedeleted');

  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings, school);
    ({ service, secrets } = await startProviderService(storeSettings, [
      { name: 'lms', secret: true, operations: ['roster', 'gradebook'] },
      { name: 'teacher-lms', secret: true, operations: ['roster', 'gradebook'], scope: 'teacher:501' },
    ]));
    token = await tokenFor(service, 'lms', secrets.lms);
  });
  afterAll(() => service.close());

  test('a student and a result a delta import deleted are changes, tobedeleted; the records are 404', async () => {
    const before = new Date().toISOString();
    const changed = '2026-11-01T10:00:00Z';
    const delta = deltaBundle({
      users: [{ ...rowOf(school.users, 's3'), status: 'tobedeleted', dateLastModified: changed }],
      results: [{ ...rowOf(school.results, 'r2'), status: 'tobedeleted', dateLastModified: changed }],
    });
    await importSmallSchool(storeSettings, delta);
    const users = (await get(`${ROSTERING}/users?${changesSince(before)}`)).body.users;
    expect(deleted(users)).toEqual([{ sourcedId: 's3', status: 'tobedeleted', dateLastModified: expect.any(String) }]);
    expect(String(deleted(users)[0].dateLastModified) >= before).toBe(true);
    const results = (await get(`${GRADEBOOK}/results?${changesSince(before)}`)).body.results;
    // r4, the deleted student's result, went with them.
    expect(deleted(results).map((result) => result.sourcedId)).toEqual(['r2', 'r4']);
    expect((await get(`${ROSTERING}/users/s3`)).status).toBe(404);
    expect((await get(`${GRADEBOOK}/results/r2`)).status).toBe(404);
    // A list that asks for no changes holds no tombstone.
    expect(deleted((await get(`${ROSTERING}/users`)).body.users)).toEqual([]);
  });

  test('an erased student is a change with nothing of the child; a teacher’s caller is told of none', async () => {
    const before = new Date().toISOString();
    const studentId = Number((await get(`${ROSTERING}/users/s1`)).body.user.metadata.contractId);
    const plan = await planErasure(service.store, 'student', studentId, '966');
    if (!plan) throw new Error('no plan');
    await eraseRows(service.store, plan, { at: new Date().toISOString(), erasedBy: 'test', reason: 'left' });
    const answer = await get(`${ROSTERING}/students?${changesSince(before)}`);
    expect(deleted(answer.body.users)).toEqual([
      { sourcedId: 's1', status: 'tobedeleted', dateLastModified: expect.any(String) },
    ]);
    expect(answer.text).not.toContain(ARABIC_STUDENT.name.split(' ')[0]);
    expect((await get(`${ROSTERING}/users/s1`)).status).toBe(404);
    const teacher = await tokenFor(service, 'teacher-lms', secrets['teacher-lms']);
    const seen = await get(`${ROSTERING}/users?${changesSince(before)}`, teacher);
    expect([seen.status, deleted(seen.body.users)]).toEqual([200, []]);
  });

  test('a tombstone older than ONEROSTER_TOMBSTONE_DAYS (90) is no change any more', async () => {
    const old = new Date(Date.now() - 91 * 86_400_000).toISOString();
    await sql`update roster_tombstones set deleted_at = ${old} where sourced_id = 's3'`.execute(service.store.db);
    const users = (await get(`${ROSTERING}/users?${changesSince('2000-01-01T00:00:00Z')}`)).body.users;
    expect(deleted(users).map((user) => user.sourcedId)).toEqual(['s1']);
  });
});

import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, startProviderWithToken, withToken } from '../support/provider-client';
import { deltaBundle, smallSchool } from '../support/roster-bundle';

/**
 * A delta consumer, from another address on both engines, learns of the gradebook records that
 * went without an import's deleted rows naming them: a line item or result an LMS DELETEd, the
 * results that went with a deleted line item, the marks a bulk import did not bring again and
 * those a delta's deletion took with it. Each is in its collection's changes as `tobedeleted`
 * with its sourcedId and the time it went alone; a record written again under its sourcedId is
 * no longer deleted.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const changesSince = (since: string) => `filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`;

describeEachEngine('gradebook records deleted read as changes', (engine) => {
  let service: RunningService;
  let token: string;
  let storeSettings: Record<string, string>;
  const school = smallSchool();
  const call = (path: string, method = 'GET', body?: unknown) =>
    withToken(service, token, `${GRADEBOOK}${path}`, { method, body });
  /** The records of a collection's changes since `since` that are tobedeleted. */
  const deletedSince = async (collection: string, since: string) => {
    const answer = await call(`/${collection}?${changesSince(since)}`);
    expect(answer.status).toBe(200);
    const records = JSON.parse(answer.text)[collection] as Array<Record<string, unknown>>;
    return records.filter((record) => record.status === 'tobedeleted');
  };
  const idsDeletedSince = async (collection: string, since: string) =>
    (await deletedSince(collection, since)).map((record) => record.sourcedId).sort();
  const imported = (bundle: ReturnType<typeof smallSchool>) => importSmallSchool(storeSettings, bundle);
  const result = (lineItem: string, student: string, score: number) => ({
    result: {
      status: 'active',
      lineItem: { sourcedId: lineItem },
      student: { sourcedId: student },
      scoreStatus: 'fully graded',
      score,
    },
  });

  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings, school);
    ({ service, token } = await startProviderWithToken(storeSettings, {
      name: 'lms',
      operations: ['roster', 'gradebook'],
    }));
  });
  afterAll(() => service.close());

  test('a result the LMS DELETEs is tobedeleted, its sourcedId and time alone, until it is PUT again', async () => {
    const before = new Date().toISOString();
    expect((await call('/results/r1', 'DELETE')).status).toBe(204);
    const [tombstone, ...others] = await deletedSince('results', before);
    expect(others).toEqual([]);
    expect(tombstone).toEqual({ sourcedId: 'r1', status: 'tobedeleted', dateLastModified: expect.any(String) });
    expect(String(tombstone.dateLastModified) >= before).toBe(true);
    expect((await call('/results/r1')).status).toBe(404);
    // Not a change for a reader that asks for none.
    const all = JSON.parse((await call('/results')).text).results as Array<Record<string, unknown>>;
    expect(all.filter((record) => record.status === 'tobedeleted')).toEqual([]);
    // Written again under the same sourcedId, the result is back and no longer deleted.
    expect(
      (await call('/results/r1', 'PUT', { result: { sourcedId: 'r1', ...result('li1', 's1', 7).result } })).status,
    ).toBe(201);
    expect(await idsDeletedSince('results', before)).toEqual([]);
    // An unscored result the LMS wrote and DELETEs is tobedeleted as well.
    const exempt = {
      result: { ...result('li1', 's2', 0).result, sourcedId: 'r-exempt', score: undefined, scoreStatus: 'exempt' },
    };
    expect((await call('/results/r-exempt', 'PUT', exempt)).status).toBe(201);
    expect((await call('/results/r-exempt', 'DELETE')).status).toBe(204);
    expect(await idsDeletedSince('results', before)).toEqual(['r-exempt']);
  });

  test('a line item the LMS DELETEs is tobedeleted, and so is each result that went with it', async () => {
    const before = new Date().toISOString();
    const lms = { result: { sourcedId: 'r-lms-li2', ...result('li2', 's2', 12).result } };
    expect((await call('/results/r-lms-li2', 'PUT', lms)).status).toBe(201);
    expect((await call('/lineItems/li2', 'DELETE')).status).toBe(204);
    expect(await idsDeletedSince('lineItems', before)).toEqual(['li2']);
    expect(await idsDeletedSince('results', before)).toEqual(['r-lms-li2', 'r3']);
    expect((await call('/lineItems/li2')).status).toBe(404);
  });

  test('the marks a bulk import does not bring again are tobedeleted; those it brings back are not', async () => {
    const before = new Date().toISOString();
    // r1, r3 and line item li2 come back with the school; r4 is left out of its results.
    await imported({ ...school, results: school.results.filter((row) => row.sourcedId !== 'r4') });
    expect(await idsDeletedSince('results', before)).toEqual(['r4']);
    const since = '2000-01-01T00:00:00Z';
    expect(await idsDeletedSince('results', since)).toEqual(['r-exempt', 'r-lms-li2', 'r4']);
    expect(await idsDeletedSince('lineItems', since)).toEqual([]);
  });

  test('the marks a delta’s deleted line item takes with it are tobedeleted', async () => {
    const before = new Date().toISOString();
    const lineItem = school.lineItems.find((row) => row.sourcedId === 'li1') ?? {};
    await imported(
      deltaBundle({ lineItems: [{ ...lineItem, status: 'tobedeleted', dateLastModified: '2026-11-01T10:00:00Z' }] }),
    );
    expect(await idsDeletedSince('lineItems', before)).toEqual(['li1']);
    expect(await idsDeletedSince('results', before)).toEqual(['r1', 'r2']);
  });
});

import { rosterVersion } from '../../src/store/queries/roster-version';
import type { RunningService } from '../../src/service';
import { addTestCallers, REMOTE_TEST_SETTINGS } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import {
  idsOf,
  importSmallSchool,
  ROSTERING,
  startProviderWithToken,
  tokenFor,
  withToken,
} from '../support/provider-client';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { openTestStore } from '../support/stores';

/**
 * The provider keeps the school's files but the marks in memory between requests; the store's
 * version says when the copy is out of date. A change made anywhere (an import on another
 * connection, another node's write, an operator's SQL) is read by the next request; a mark
 * written, which the copy does not hold, leaves the copy as it is.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';

describeEachEngine('the provider’s copy of the school', (engine) => {
  let service: RunningService;
  let storeSettings: Record<string, string>;
  let token: string;
  const read = async (on: RunningService, path: string) => {
    const answer = await withToken(on, token, path);
    expect([path, answer.status]).toEqual([path, 200]);
    return answer.text;
  };
  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    ({ service, token } = await startProviderWithToken(storeSettings, {
      name: 'lms',
      operations: ['roster', 'gradebook'],
    }));
  });
  afterAll(() => service.close());

  test('a school imported again on another connection is read as imported by the next request', async () => {
    const renamed = encodeURIComponent("givenName='Renamed'");
    expect(idsOf(await read(service, `${ROSTERING}/users?filter=${renamed}`), 'users')).toEqual([]);
    const school = smallSchool();
    const sara = school.users.find((user) => user.sourcedId === 's2');
    if (!sara) throw new Error('the small school has no s2');
    sara.givenName = 'Renamed';
    const store = await openTestStore(storeSettings);
    try {
      const outcome = await importBundle(store, writeBundle(school));
      expect(problemsOf(outcome)).toEqual([]);
    } finally {
      await store.close();
    }
    expect(idsOf(await read(service, `${ROSTERING}/users?filter=${renamed}`), 'users')).toEqual(['s2']);
    expect(JSON.parse(await read(service, `${ROSTERING}/users/s2`)).user.givenName).toBe('Renamed');
  });

  test('the copy answers as the store does: sorted, filtered, paged, nested and scoped reads', async () => {
    const { contractId } = JSON.parse(await read(service, `${ROSTERING}/users/t-1`)).user.metadata;
    const added = await addTestCallers(service.store, [
      { name: 'teacher-app', secret: true, operations: ['roster'], scope: `teacher:${contractId}` },
    ]);
    await service.readCallers();
    const teacher = await tokenFor(service, 'teacher-app', added['teacher-app']);
    const reads: Array<[path: string, as: string]> = [
      [`${ROSTERING}/users?sort=familyName&orderBy=desc&limit=3&offset=1`, token],
      [`${ROSTERING}/students?filter=${encodeURIComponent("givenName~'a' OR identifier>'1001'")}`, token],
      [`${ROSTERING}/classes/math-7a/students?fields=sourcedId,givenName`, token],
      [`${ROSTERING}/teachers/t-1/classes`, token],
      [`${ROSTERING}/enrollments`, teacher],
      [`${GRADEBOOK}/classes/math-7a/results`, token],
    ];
    for (const [path, as] of reads) {
      // The version moved on: the first answer is read from the store, the second from the copy.
      await service.store.db
        .updateTable('roster_versions')
        .set((update) => ({ version: update('version', '+', 1) }))
        .execute();
      const fromStore = await withToken(service, as, path);
      const fromCopy = await withToken(service, as, path);
      expect([path, fromStore.status]).toEqual([path, 200]);
      expect([path, fromCopy.text, fromCopy.headers['x-total-count']]).toEqual([
        path,
        fromStore.text,
        fromStore.headers['x-total-count'],
      ]);
    }
  });

  test('a change made by hand in the store is read by the next request', async () => {
    const nameOf = async () => JSON.parse(await read(service, `${ROSTERING}/users/s3`)).user.metadata.nameEn;
    const before = await nameOf();
    const { id } = await service.store.db
      .selectFrom('roster_ids')
      .select('id')
      .where('kind', '=', 'students')
      .where('sourced_id', '=', 's3')
      .executeTakeFirstOrThrow();
    await service.store.db.updateTable('students').set({ name_en: 'Changed by hand' }).where('id', '=', id).execute();
    expect(before).not.toBe('Changed by hand');
    expect(await nameOf()).toBe('Changed by hand');
  });

  test('a mark written leaves the version as it is; a line item written moves it', async () => {
    const version = await rosterVersion(service.store);
    const mark = await withToken(service, token, `${GRADEBOOK}/results/r-copy-1`, {
      method: 'PUT',
      body: { result: { lineItem: { sourcedId: 'li1' }, student: { sourcedId: 's1' }, score: 6 } },
    });
    expect(mark.status).toBe(201);
    expect(await rosterVersion(service.store)).toBe(version);
    const item = await withToken(service, token, `${GRADEBOOK}/lineItems/li-copy-1`, {
      method: 'PUT',
      body: {
        lineItem: {
          title: 'Copy quiz',
          class: { sourcedId: 'math-7a' },
          category: { sourcedId: 'cat-quiz' },
          gradingPeriod: { sourcedId: 'gp1' },
          assignDate: '2026-10-01',
          dueDate: '2026-10-08',
          resultValueMin: 0,
          resultValueMax: 10,
        },
      },
    });
    expect(item.status).toBe(201);
    expect(await rosterVersion(service.store)).toBeGreaterThan(version);
  });

  test("another node's write is read by this node's next request", async () => {
    const other = await startTestService({ ...REMOTE_TEST_SETTINGS, DEMO_DATA: 'off', ...storeSettings });
    try {
      expect(idsOf(await read(service, `${GRADEBOOK}/lineItems?limit=10000`), 'lineItems')).not.toContain('li-node');
      const written = await withToken(other, token, `${GRADEBOOK}/lineItems/li-node`, {
        method: 'PUT',
        body: {
          lineItem: {
            title: 'Written on another node',
            class: { sourcedId: 'math-7b' },
            category: { sourcedId: 'cat-quiz' },
            gradingPeriod: { sourcedId: 'gp1' },
            assignDate: '2026-10-01',
            dueDate: '2026-10-08',
            resultValueMin: 0,
            resultValueMax: 10,
          },
        },
      });
      expect(written.status).toBe(201);
      expect(idsOf(await read(service, `${GRADEBOOK}/lineItems?limit=10000`), 'lineItems')).toContain('li-node');
      const ofClass = await read(service, `${GRADEBOOK}/classes/math-7b/lineItems`);
      expect(idsOf(ofClass, 'lineItems')).toContain('li-node');
    } finally {
      await other.close();
    }
  });
});

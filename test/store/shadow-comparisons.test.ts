import { ShadowLedger } from '../../src/migration/shadow-ledger';
import { shadowReport } from '../../src/migration/shadow-report';
import { rehearsalSession, inTransaction } from '../../src/store/session';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { openTestStore } from '../support/stores';

/**
 * The comparisons' figures on both engines: counted by day (an upsert), added up by the report
 * with one example pair a path, and old days deleted when the ledger prunes; and a rehearsal's
 * transactions, which are rolled back whatever they did.
 */
describeEachEngine('Comparison figures in the store', ({ freshStoreSettings }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(freshStoreSettings());
  });
  afterAll(() => store.close());

  test('counts outcomes and paths per day; the report adds the days since a date; old days are pruned', async () => {
    let now = new Date('2026-11-01T10:00:00Z');
    const ledger = new ShadowLedger(store, { keepDays: 14, flushMs: 60_000 }, () => now);
    const difference = { path: '/d/Name', noisy: false, localExample: 'A…(5)', legacyExample: 'A…(6)' };
    await ledger.record('GetStudentInfoById', 'json', 'different', [difference]);
    await ledger.flush();
    now = new Date('2026-11-10T10:00:00Z');
    await ledger.record('GetStudentInfoById', 'json', 'different', [{ ...difference, localExample: 'B…(2)' }]);
    await ledger.record('GetStudentInfoById', 'json', 'identical');
    await ledger.record('GetStudentInfoById', 'soap11', 'legacy-error');
    await ledger.flush();

    const all = await shadowReport(store, {});
    expect(all.operations).toEqual([
      expect.objectContaining({ binding: 'json', compared: 3, different: 2, identical: 1 }),
      expect.objectContaining({ binding: 'soap11', compared: 0, legacyErrors: 1 }),
    ]);
    expect(all.differences).toEqual([
      expect.objectContaining({
        path: '/d/Name',
        count: 2,
        noisy: false,
        localExample: 'A…(5)',
        legacyExample: 'A…(6)',
      }),
    ]);
    const since = await shadowReport(store, { since: '2026-11-05', operation: 'GetStudentInfoById' });
    expect(since.operations[0]).toMatchObject({ binding: 'json', different: 1, identical: 1 });
    expect(since.differences[0]).toMatchObject({ count: 1, localExample: 'B…(2)' });

    // Past an hour the ledger prunes: 14 days before Nov 20 is Nov 6, so Nov 1 goes.
    now = new Date('2026-11-20T12:00:00Z');
    await ledger.record('HelloWorld', 'soap12', 'identical');
    await ledger.close();
    const pruned = await shadowReport(store, { operation: 'GetStudentInfoById' });
    expect(pruned.operations.find((row) => row.binding === 'json')).toMatchObject({ different: 1, identical: 1 });
    expect(pruned.differences[0]).toMatchObject({ count: 1 });
  });

  test("a rehearsal's transaction is rolled back, and gives what its work returned", async () => {
    const before = await store.db.selectFrom('shadow_comparisons').selectAll().execute();
    const returned = await inTransaction(rehearsalSession(store), async ({ db }) => {
      await db
        .insertInto('shadow_comparisons')
        .values({ day: '2000-01-01', operation: 'X', binding: 'json', outcome: 'identical', count: 1 })
        .execute();
      return 'done';
    });
    expect(returned).toBe('done');
    expect(await store.db.selectFrom('shadow_comparisons').selectAll().execute()).toEqual(before);
  });
});

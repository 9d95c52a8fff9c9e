import { countAgainstLimits } from '../../src/rate-limits/rate-limit';
import type { Store } from '../../src/store/open-store';
import { inTransaction } from '../../src/store/session';
import { describeEachEngine } from '../support/engines';
import { openTestStore } from '../support/stores';

describeEachEngine('Rate limits in the store', ({ engine, freshStoreSettings }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(freshStoreSettings());
  });
  afterAll(() => store.close());

  const take = (key: string, limit: number, at: Date) =>
    inTransaction(store, (transaction) => countAgainstLimits(transaction, [{ key, limit, windowMs: 60_000 }], at));

  test('count the allowed requests in the window, refuse past the limit, and record nothing of a refusal', async () => {
    const start = new Date('2026-11-22T10:00:00Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const events = async () => (await store.db.selectFrom('rate_limit_events').selectAll().execute()).length;
    const before = await events();
    const outcomes = [await take('k', 2, at(0)), await take('k', 2, at(10))];
    expect(await events()).toBe(before + 2);
    outcomes.push(await take('k', 2, at(20)), await take('k', 2, at(30)));
    expect(await events()).toBe(before + 2);
    // At 65 s the request at 0 s has left the window; the refused ones were never in it.
    outcomes.push(await take('k', 2, at(65)), await take('k', 2, at(66)), await take('k', 2, at(125)));
    expect(outcomes.map((exceeded) => exceeded !== undefined)).toEqual([false, false, true, true, false, true, false]);
  });

  test('several limits at once count the buckets one alone counts: one reached refuses, recording none', async () => {
    const at = new Date('2026-11-24T10:00:00Z');
    const both = () =>
      inTransaction(store, (transaction) =>
        countAgainstLimits(
          transaction,
          [
            { key: 'pair-a', limit: 3, windowMs: 60_000 },
            { key: 'pair-b', limit: 1, windowMs: 60_000 },
          ],
          at,
        ),
      );
    expect(await both()).toBeUndefined();
    // pair-b is full: the call is refused, and pair-a keeps its one event.
    expect((await both())?.key).toBe('pair-b');
    expect(await take('pair-a', 3, at)).toBeUndefined();
    expect(await take('pair-a', 3, at)).toBeUndefined();
    expect((await take('pair-a', 3, at))?.key).toBe('pair-a');
  });

  test('a bucket counted alone loses its events past the window as it is used, and keeps those within', async () => {
    const start = new Date('2026-11-25T10:00:00Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const times = async () =>
      (
        await store.db
          .selectFrom('rate_limit_events')
          .select('occurred_at')
          .where('occurred_at', '>=', start.toISOString())
          .execute()
      )
        .map((row) => row.occurred_at)
        .sort();
    expect(await take('pruned', 5, at(0))).toBeUndefined();
    expect(await take('pruned', 5, at(30))).toBeUndefined();
    expect(await times()).toEqual([at(0).toISOString(), at(30).toISOString()]);
    // At 70 s the event at 0 s is past the window: it goes, the one at 30 s stays.
    expect(await take('pruned', 5, at(70))).toBeUndefined();
    expect(await times()).toEqual([at(30).toISOString(), at(70).toISOString()]);
  });

  test('store buckets as hashes, never the key in clear', async () => {
    await take('auth-code:phone:+966501112233', 5, new Date());
    const rows = await store.db.selectFrom('rate_limit_events').select('bucket').execute();
    expect(rows.some((row) => row.bucket.includes('966501112233'))).toBe(false);
  });

  test('concurrent requests for one bucket never overshoot its limit', async () => {
    const at = new Date('2026-11-23T10:00:00Z');
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => take('busy', 5, at)));
    expect(outcomes.filter((exceeded) => exceeded === undefined)).toHaveLength(5);
  });

  test('an allowed request sweeps, once a minute, the events no window counts any more', async () => {
    // Hours of their own per engine: both suites share the module, whose sweep is due once a minute.
    const now = new Date(Date.UTC(2030, 0, 1, engine === 'sqlite' ? 10 : 14));
    const hoursBefore = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
    await store.db.deleteFrom('rate_limit_events').execute();
    await store.db
      .insertInto('rate_limit_events')
      .values([
        { bucket: 'old', occurred_at: hoursBefore(2) },
        { bucket: 'recent', occurred_at: hoursBefore(0.5) },
      ])
      .execute();
    const buckets = async () =>
      (await store.db.selectFrom('rate_limit_events').select('bucket').execute()).map((row) => row.bucket);
    await take('sweeper', 5, now);
    expect((await buckets()).filter((bucket) => bucket.length < 10)).toEqual(['recent']);
    await store.db
      .insertInto('rate_limit_events')
      .values({ bucket: 'old', occurred_at: hoursBefore(2) })
      .execute();
    // Not due again within the minute.
    await take('sweeper', 5, new Date(now.getTime() + 30_000));
    expect((await buckets()).filter((bucket) => bucket.length < 10).sort()).toEqual(['old', 'recent']);
  });
});

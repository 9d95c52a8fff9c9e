import { sql } from 'kysely';
import { loadConfig } from '../../src/config/service-config';
import { openStore, type Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { openTestSchool } from '../support/stores';

/**
 * Every process keeps the terms, and the note and absence types, in memory. A change made through
 * another connection (another process, an import, psql) is seen by the next call on SQLite, and as
 * soon as PostgreSQL's notification arrives there.
 */

const TODAY = '2026-11-22';

/** A store of its own on the same database, counting the queries it sends. */
async function countingStore(settings: Record<string, string>): Promise<{ store: Store; queries: () => number }> {
  const config = loadConfig(settings);
  let count = 0;
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDirectory: config.dataDirectory,
    queryTook: () => {
      count += 1;
    },
  });
  return { store, queries: () => count };
}

/** How many queries `ask` sends once the copy is warm. */
async function queriesOf(queries: () => number, ask: () => Promise<unknown>): Promise<number> {
  await ask();
  const before = queries();
  await ask();
  return queries() - before;
}

describeEachEngine('reference data kept in memory', ({ engine, freshStoreSettings }) => {
  let writer: Store | undefined;
  let reader: { store: Store; queries: () => number } | undefined;

  beforeAll(async () => {
    const settings = freshStoreSettings();
    writer = await openTestSchool(settings);
    reader = await countingStore(settings);
  });
  afterAll(async () => {
    await reader?.store.close();
    await writer?.close();
  });

  const current = () => (reader as { store: Store }).store.reference.currentTermId(TODAY);

  test('the current term is read once, then asked for with at most one point lookup', async () => {
    const { store, queries } = reader as { store: Store; queries: () => number };
    expect(await current()).toEqual(expect.any(Number));
    // PostgreSQL announces changes, so a warm copy costs no query; SQLite checks the version.
    const expected = engine === 'postgres' ? 0 : 1;
    const settled = await eventually(
      () => queriesOf(queries, current),
      (value) => value === expected,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(settled).toBe(expected);
    expect(await queriesOf(queries, () => store.reference.noteTypes())).toBe(expected);
  });

  test('a term and a note type written through another connection are seen', async () => {
    const { store } = reader as { store: Store };
    const { db } = writer as Store;
    const before = await current();
    const year = await db
      .insertInto('academic_years')
      .values({ name: '2026/2027 (b)', starts_on: '2026-11-01', ends_on: '2027-06-30' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const term = await db
      .insertInto('terms')
      .values({
        academic_year_id: year.id,
        name_ar: 'فصل',
        name_en: 'Short term',
        starts_on: '2026-11-20',
        ends_on: '2026-12-20',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await eventually(current, (value) => value === term.id)).toBe(term.id);

    const count = (await store.reference.noteTypes()).length;
    await db.insertInto('note_types').values({ name_ar: 'مبادرة', name_en: 'Initiative', is_positive: 1 }).execute();
    expect(
      await eventually(
        async () => (await store.reference.noteTypes()).length,
        (value) => value === count + 1,
      ),
    ).toBe(count + 1);

    await db.deleteFrom('terms').where('id', '=', term.id).execute();
    await db.deleteFrom('academic_years').where('id', '=', year.id).execute();
    expect(await eventually(current, (value) => value === before)).toBe(before);
  });

  if (engine === 'postgres') {
    test('a lost watch connection: changes are still seen, and the watch comes back', async () => {
      const { queries } = reader as { store: Store; queries: () => number };
      const { db } = writer as Store;
      const before = await current();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN %'`.execute(db);
      const year = await db
        .insertInto('academic_years')
        .values({ name: 'late', starts_on: '2026-11-02', ends_on: '2027-06-30' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const term = await db
        .insertInto('terms')
        .values({
          academic_year_id: year.id,
          name_ar: 'فصل',
          name_en: 'Late term',
          starts_on: '2026-11-21',
          ends_on: '2026-12-20',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(await eventually(current, (value) => value === term.id)).toBe(term.id);
      // Listening again, a warm copy costs no query.
      expect(
        await eventually(
          () => queriesOf(queries, current),
          (value) => value === 0,
        ),
      ).toBe(0);
      await db.deleteFrom('terms').where('id', '=', term.id).execute();
      await db.deleteFrom('academic_years').where('id', '=', year.id).execute();
      expect(await eventually(current, (value) => value === before)).toBe(before);
    });
  }
});

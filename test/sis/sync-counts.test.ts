import { readSisSettings } from '../../src/config/sis-settings';
import { type SyncOutcome, syncSchool } from '../../src/sis/sync-school';
import type { Store } from '../../src/store/open-store';
import { lastSyncRun } from '../../src/store/queries/sis-sync';
import { describeEachEngine } from '../support/engines';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A sync's added, changed and deleted are the import's own, per kind and marks included: what a dry
 * run says it would do is what the real run then says it did, and what the store's rows show.
 */

const run = { full: false, dryRun: false, skipInvalid: false, fromIdentifier: false, strict: false };
const options = { ...run, defaultCountryCode: '966', wait: async () => undefined };
const TABLES = ['students', 'teachers', 'classes', 'student_records', 'assessments', 'marks'] as const;

async function rowCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await store.db.selectFrom(table).select(store.db.fn.countAll<number>().as('count')).executeTakeFirst();
    counts[table] = Number(row?.count ?? 0);
  }
  return counts;
}

/** A dry run, then the real run: the same figures; returns the real one. */
async function syncTwice(store: Store, sis: ReturnType<typeof readSisSettings>): Promise<SyncOutcome> {
  const dry = await syncSchool(store, sis, { ...options, dryRun: true });
  const real = await syncSchool(store, sis, options);
  expect(real).toMatchObject({ outcome: 'done', message: '' });
  expect({ ...real.imported?.changes }).toEqual({ ...dry.imported?.changes });
  expect([real.added, real.changed, real.deleted]).toEqual([dry.added, dry.changed, dry.deleted]);
  // What /status and /metrics read is the same.
  const recorded = await lastSyncRun(store);
  expect(recorded).toMatchObject({ added: real.added, changed: real.changed, deleted: real.deleted });
  expect(JSON.parse(recorded?.changes ?? '')).toEqual({ ...real.imported?.changes });
  return real;
}

describeEachEngine('the figures of a sync', (engine) => {
  test('are what it did, per kind and marks included, and what its dry run said', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    const provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    try {
      const sis = readSisSettings({ ...provider.settings('1.2'), SIS_PAGE_SIZE: '5' });
      // The school was imported from CSV first: the first sync brings every record again, changed.
      expect(problemsOf(await importBundle(store, writeBundle(sisSchool())))).toEqual([]);
      const held = await rowCounts(store);
      const first = await syncTwice(store, sis);
      expect(first.mode).toBe('bulk');
      for (const table of TABLES) {
        expect(first.imported?.changes?.[table]).toEqual({ added: 0, changed: held[table], deleted: 0 });
      }
      expect(first.added).toBe(0);
      expect(await rowCounts(store)).toEqual(held);

      // A changed mark, a deleted one and a new one.
      // Modified after the sync before it started, as a delta asks.
      const change = (sourcedId: string, fields: Record<string, unknown>) =>
        provider.put('results', {
          ...provider.record('results', sourcedId),
          ...fields,
          dateLastModified: new Date(Date.now() + 1000).toISOString(),
        });
      change('r1', { score: 9.5 });
      change('r2', { status: 'tobedeleted' });
      change('r3', { sourcedId: 'r5', score: 20 });
      const delta = await syncTwice(store, sis);
      expect(delta.imported?.changes).toEqual({ marks: { added: 1, changed: 1, deleted: 1 } });
      expect([delta.added, delta.changed, delta.deleted]).toEqual([1, 1, 1]);
      expect((await rowCounts(store)).marks).toBe(held.marks);

      // The deleted mark comes back: added again, not a change that cancels the deletion out.
      change('r2', { status: 'active', score: 8 });
      const restored = await syncTwice(store, sis);
      expect(restored.imported?.changes).toEqual({ marks: { added: 1, changed: 0, deleted: 0 } });
      expect((await rowCounts(store)).marks).toBe(held.marks + 1);

      // Deleted again, twice: the second delta finds nothing to delete.
      change('r2', { status: 'tobedeleted' });
      expect((await syncTwice(store, sis)).imported?.changes).toEqual({ marks: { added: 0, changed: 0, deleted: 1 } });
      change('r2', { status: 'tobedeleted' });
      const again = await syncTwice(store, sis);
      expect([again.added, again.changed, again.deleted]).toEqual([0, 0, 0]);
      expect((await rowCounts(store)).marks).toBe(held.marks);
    } finally {
      await provider.close();
      await store.close();
    }
  });

  test("count the rows a deletion takes with it: a line item's marks are deleted marks", async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    const provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    try {
      const sis = readSisSettings(provider.settings('1.2'));
      await syncTwice(store, sis);
      const held = await rowCounts(store);
      provider.put('lineItems', {
        ...provider.record('lineItems', 'li1'),
        status: 'tobedeleted',
        dateLastModified: new Date(Date.now() + 1000).toISOString(),
      });
      // li1 has the results r1 and r2: the store deletes them with it.
      const delta = await syncTwice(store, sis);
      expect(delta.imported?.changes).toEqual({
        assessments: { added: 0, changed: 0, deleted: 1 },
        marks: { added: 0, changed: 0, deleted: 2 },
      });
      expect(delta.deleted).toBe(3);
      const after = await rowCounts(store);
      expect([after.assessments, after.marks]).toEqual([held.assessments - 1, held.marks - 2]);
    } finally {
      await provider.close();
      await store.close();
    }
  });
});

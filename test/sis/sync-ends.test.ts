import { readSisSettings } from '../../src/config/sis-settings';
import { type SyncOptions, syncSchool } from '../../src/sis/sync-school';
import { describeEachEngine } from '../support/engines';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A sync ends whatever the provider does: pages whose `next` link goes back to a page already
 * read under a new query each time are recognised by their records, and a sync past
 * SIS_SYNC_TIME_LIMIT_SECONDS is stopped; either way it fails naming why, and writes nothing.
 */
const options: SyncOptions = {
  full: true,
  dryRun: false,
  skipInvalid: false,
  fromIdentifier: false,
  strict: false,
  defaultCountryCode: '966',
  wait: async () => undefined,
};

describeEachEngine('a sync that would not end', (engine) => {
  let provider: OneRosterProvider;
  beforeEach(async () => {
    provider = new OneRosterProvider(schoolOf(sisSchool(), '1.1'), { paging: 'link' });
    await provider.start();
  });
  afterEach(() => provider.close());

  /** A store synced once, and a change at the provider that a sync which went through would bring. */
  async function syncedStore() {
    const store = await openTestStore(engine.freshStoreSettings());
    const sis = { ...provider.settings('1.1'), SIS_PAGE_SIZE: '3' };
    expect((await syncSchool(store, readSisSettings(sis), options)).outcome).toBe('done');
    const changedAt = new Date(Date.now() + 1000).toISOString();
    provider.put('users', { ...provider.record('users', 's2'), givenName: 'Sarah', dateLastModified: changedAt });
    return { store, sis, before: await schoolRows(store) };
  }

  test('a next link naming a page read, under a new query, fails the sync naming collection and page', async () => {
    const { store, sis, before } = await syncedStore();
    try {
      provider.nextGoesRound = 'classes';
      const asked = provider.requests.length;
      const outcome = await syncSchool(store, readSisSettings(sis), options);
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toMatch(
        /^classes: page 2 \(\/ims\/oneroster\/v1p1\/classes, offset 0\) holds only records already read/,
      );
      // The second page told it; at most the pages asked for ahead of it were sent.
      const classPages = provider.requests.slice(asked).filter((line) => line.includes('/classes?'));
      expect(classPages.length).toBeLessThanOrEqual(3);
      expect(await schoolRows(store)).toEqual(before);
    } finally {
      await store.close();
    }
  });

  test('past SIS_SYNC_TIME_LIMIT_SECONDS the sync is stopped and fails, writing nothing', async () => {
    const { store, sis, before } = await syncedStore();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      // The provider answers the results' first page only when the test ends: a sync that would wait on.
      provider.faults.push({ collection: 'results', held, times: 1 });
      const settings = readSisSettings({ ...sis, SIS_TIMEOUT_MS: '600000', SIS_SYNC_TIME_LIMIT_SECONDS: '1' });
      const started = Date.now();
      const outcome = await syncSchool(store, settings, options);
      expect(outcome.outcome).toBe('failed');
      expect(outcome.message).toBe('the sync took longer than SIS_SYNC_TIME_LIMIT_SECONDS (1 s) allows; stopped');
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(await schoolRows(store)).toEqual(before);
    } finally {
      release();
      await store.close();
    }
  });
});

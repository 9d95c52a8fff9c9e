import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import { describeEachEngine } from '../support/engines';
import { OneRosterProvider, schoolOf, sisSchool } from '../support/oneroster-provider';
import { writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * On both engines: a full sync and a delta give the store the CSV import gives, and of two
 * processes sharing the store (two nodes) one syncs while the other finds the lease taken.
 */

const run = { full: false, dryRun: false, skipInvalid: false, fromIdentifier: false, strict: false };
const options = { ...run, defaultCountryCode: '966', wait: async () => undefined };

describeEachEngine('the sync', (engine) => {
  test('full, then a delta, equals the import; two nodes never sync at once', async () => {
    const expected = await openTestStore(engine.freshStoreSettings());
    const settings = engine.freshStoreSettings();
    const nodeA = await openTestStore(settings);
    const nodeB = await openTestStore(settings);
    const provider = new OneRosterProvider(schoolOf(sisSchool(), '1.2'));
    await provider.start();
    try {
      const sis = readSisSettings({ ...provider.settings('1.2'), SIS_PAGE_SIZE: '4' });
      const [a, b] = await Promise.all([syncSchool(nodeA, sis, options), syncSchool(nodeB, sis, options)]);
      expect([a.outcome, b.outcome].sort()).toEqual(['busy', 'done']);
      expect(problemsOf(await importBundle(expected, writeBundle(sisSchool())))).toEqual([]);
      expect(await schoolRows(nodeB)).toEqual(await schoolRows(expected));

      const changedAt = new Date(Date.now() + 1000).toISOString();
      provider.put('users', { ...provider.record('users', 't-1'), givenName: 'Muna', dateLastModified: changedAt });
      const delta = await syncSchool(nodeB, sis, options);
      expect(delta).toMatchObject({ outcome: 'done', mode: 'delta', changed: 1, added: 0, deleted: 0 });
      const changed = sisSchool();
      (changed.users.find((row) => row.sourcedId === 't-1') as Record<string, string>).givenName = 'Muna';
      expect(problemsOf(await importBundle(expected, writeBundle(changed)))).toEqual([]);
      expect(await schoolRows(nodeA)).toEqual(await schoolRows(expected));
    } finally {
      await provider.close();
      await nodeA.close();
      await nodeB.close();
      await expected.close();
    }
  });
});

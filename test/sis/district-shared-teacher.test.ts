import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import { describeEachEngine } from '../support/engines';
import { withPrimaryOrg } from '../support/one-truth';
import { districtSchool, OneRosterProvider, schoolOf } from '../support/oneroster-provider';
import { type BundleRows, writeBundle } from '../support/roster-bundle';
import { importBundle, keptFieldsOf, problemsOf } from '../support/roster-import';
import { storeDump } from '../support/store-dump';
import { openTestStore } from '../support/stores';
import { SYNC_TEST_OPTIONS } from '../support/sync-options';

/**
 * A teacher of two schools of a district, changed at the SIS and brought by a delta sync of one of
 * them (SIS_SCHOOL): kept with the orgs the SIS gives (both schools), as a bulk import of the
 * changed district with --school keeps them, and the store as that import makes it.
 */

type Row = Record<string, string>;

/** The district with `t-1` teaching in both schools (Math 9X is the second school's). */
function district(): BundleRows {
  const rows = districtSchool();
  const teacher = rows.users.find((row) => row.sourcedId === 't-1') as Row;
  teacher.orgSourcedIds = 'sch-1,sch-2';
  const enrolment = rows.enrollments.find((row) => row.sourcedId === 'e90') as Row;
  rows.enrollments.push({ ...enrolment, sourcedId: 'e91', userSourcedId: 't-1', role: 'teacher' });
  return rows;
}

describeEachEngine('a delta sync of a teacher of two schools of a district', (engine) => {
  test.each(['1.1', '1.2'] as const)(
    'keeps both schools in the orgs given back, as a bulk import of the district does (%s)',
    async (version) => {
      const store = await openTestStore(engine.freshStoreSettings());
      const bulk = await openTestStore(engine.freshStoreSettings());
      const provider = new OneRosterProvider(schoolOf(district(), version));
      await provider.start();
      try {
        const sis = readSisSettings({ ...provider.settings(version), SIS_SCHOOL: 'sch-1' });
        expect(await syncSchool(store, sis, SYNC_TEST_OPTIONS)).toMatchObject({ outcome: 'done', mode: 'bulk' });
        const changedAt = new Date(Date.now() + 1000).toISOString();
        provider.put('users', {
          ...provider.record('users', 't-1'),
          familyName: 'Saleh-Omar',
          dateLastModified: changedAt,
        });
        const delta = await syncSchool(store, sis, SYNC_TEST_OPTIONS);
        expect(delta).toMatchObject({ outcome: 'done', mode: 'delta', problems: 0, changed: 1 });
        expect((await keptFieldsOf(store, 'users.csv', 't-1'))?.orgSourcedIds).toBe('sch-1,sch-2');

        const changed = district();
        (changed.users.find((row) => row.sourcedId === 't-1') as Row).familyName = 'Saleh-Omar';
        expect(problemsOf(await importBundle(bulk, writeBundle(changed), { school: 'sch-1' }))).toEqual([]);
        const expected = await storeDump(bulk);
        const synced = await storeDump(store);
        expect(synced.tables).toEqual(expected.tables);
        const kept = version === '1.2' ? withPrimaryOrg(expected).kept : expected.kept;
        expect(synced.kept['users.csv t-1']).toEqual(kept['users.csv t-1']);
      } finally {
        await provider.close();
        await store.close();
        await bulk.close();
      }
    },
  );
});

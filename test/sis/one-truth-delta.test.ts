import fc from 'fast-check';
import { describeEachEngine } from '../support/engines';
import { deltaBundle, generatedChanges, stamped } from '../support/change-set-generator';
import { PROPERTY_TIMEOUT_MS, propertyRuns } from '../support/generated-values';
import { syncedOnce, withFreshStore, withPrimaryOrg } from '../support/one-truth';
import { OneRosterProvider, recordOf, schoolOf } from '../support/oneroster-provider';
import { type BundleRows, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { generatedSchool } from '../support/school-generator';
import { storeDump } from '../support/store-dump';

/**
 * One truth for a school that changes: a bulk import then a delta CSV of the changes, a full sync
 * then a delta sync of the same changes at the provider, and a bulk import of the school as it
 * ends up give the same store, on both engines, for a school of its own and for one school of a
 * district of two (SIS_SCHOOL, --school), whose other school changes too.
 */

const DELTA_MODIFIED = '2026-11-01T10:00:00.000Z';

const cases = [
  { name: 'a school of its own', schools: 1 as const, school: undefined },
  { name: 'one school of a district of two', schools: 2 as const, school: 'sch-1' },
];

describeEachEngine('a generated school changed', (engine) => {
  const imported = (bundles: BundleRows[], school: string | undefined) =>
    withFreshStore(engine, async (store) => {
      for (const rows of bundles) {
        expect(problemsOf(await importBundle(store, writeBundle(rows), { school }))).toEqual([]);
      }
      return storeDump(store);
    });

  test.each(cases)(
    '$name: bulk and delta CSV, bulk and delta sync, bulk of the end state agree',
    async (chosen) => {
      const scenario = generatedSchool({ schools: chosen.schools }).chain((school) =>
        fc.record({
          school: fc.constant(school),
          changes: generatedChanges(school),
          version: fc.constantFrom('1.1' as const, '1.2' as const),
        }),
      );
      await fc.assert(
        fc.asyncProperty(scenario, async ({ school, changes, version }) => {
          const end = await imported([changes.final], chosen.school);
          const delta = deltaBundle(changes, DELTA_MODIFIED, chosen.school ? school.rows.orgs : []);
          expect(await imported([school.rows, delta], chosen.school)).toEqual(end);
          const provider = new OneRosterProvider(schoolOf(school.rows, version));
          await provider.start();
          try {
            const synced = await withFreshStore(engine, async (store) => {
              await syncedOnce(store, provider, version, 'bulk', chosen.school);
              const modifiedAt = new Date(Date.now() + 1000).toISOString();
              for (const [file, rows] of changes.changed)
                for (const row of rows) provider.put(file, recordOf(file, stamped(row, modifiedAt), version));
              await syncedOnce(store, provider, version, 'delta', chosen.school);
              return storeDump(store);
            });
            expect(synced).toEqual(version === '1.2' ? withPrimaryOrg(end) : end);
          } finally {
            await provider.close();
          }
        }),
        propertyRuns(4),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

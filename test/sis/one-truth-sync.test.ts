import fc from 'fast-check';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { PROPERTY_TIMEOUT_MS, propertyRuns } from '../support/generated-values';
import { syncedOnce, withFreshStore, withPrimaryOrg } from '../support/one-truth';
import { OneRosterProvider, schoolOf } from '../support/oneroster-provider';
import { writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { generatedSchool, type PhoneBook } from '../support/school-generator';
import { storeDump } from '../support/store-dump';

/**
 * One truth for a school however it arrives: the store a bulk import of a generated school's CSV
 * bundle makes is the store a full sync of the same school from a OneRoster REST provider (1.1
 * and 1.2) makes, on both engines; each phone number is stored as its region reads it, and each
 * teacher is assigned once to a class.
 */

const writing = fc.record({
  bom: fc.boolean(),
  eol: fc.constantFrom('\r\n' as const, '\n' as const, '\r' as const),
  reversed: fc.boolean(),
});

/** The phone each user of the book was stored with, by sourcedId. */
async function storedPhones(store: Store, phones: PhoneBook): Promise<Record<string, string | null>> {
  const phoneById = new Map<string, string | null>();
  const rows = [
    ...(await store.db.selectFrom('students').select(['id', 'phone']).execute()).map(
      (row) => ['students', row] as const,
    ),
    ...(await store.db.selectFrom('teachers').select(['id', 'phone']).execute()).map(
      (row) => ['teachers', row] as const,
    ),
    ...(await store.db.selectFrom('guardians').select(['id', 'phone']).execute()).map(
      (row) => ['guardians', row] as const,
    ),
  ];
  for (const [table, row] of rows) phoneById.set(`${table} ${row.id}`, row.phone);
  const stored: Record<string, string | null> = {};
  for (const entry of await store.db.selectFrom('roster_ids').select(['kind', 'sourced_id', 'id']).execute()) {
    const phone = phoneById.get(`${entry.kind} ${entry.id}`);
    if (phones.has(entry.sourced_id) && phone !== undefined) stored[entry.sourced_id] = phone;
  }
  return stored;
}

describeEachEngine('a generated school imported and synced', (engine) => {
  test.each(['1.1', '1.2'] as const)(
    'a full sync from a %s provider makes the store the bulk import makes',
    async (version) => {
      await fc.assert(
        fc.asyncProperty(generatedSchool({ schools: 1 }), writing, async (school, options) => {
          const imported = await withFreshStore(engine, async (store) => {
            expect(problemsOf(await importBundle(store, writeBundle(school.rows, options)))).toEqual([]);
            expect(await storedPhones(store, school.phones)).toEqual(
              Object.fromEntries([...school.phones].map(([user, phone]) => [user, phone.stored])),
            );
            const dump = await storeDump(store);
            // A teacher is assigned once to a section and subject, however many enrolments (one per term) say so.
            const assignments = dump.tables.teacher_assignments.map((row) => row.slice(row.indexOf('{')));
            expect(assignments).toEqual([...new Set(assignments)]);
            return dump;
          });
          const provider = new OneRosterProvider(schoolOf(school.rows, version));
          await provider.start();
          try {
            const synced = await withFreshStore(engine, async (store) => {
              await syncedOnce(store, provider, version, 'bulk');
              return storeDump(store);
            });
            expect(synced).toEqual(version === '1.2' ? withPrimaryOrg(imported) : imported);
          } finally {
            await provider.close();
          }
        }),
        propertyRuns(5),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});

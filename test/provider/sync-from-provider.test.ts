import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, startProviderService } from '../support/provider-client';
import { schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * The provider read by a OneRoster 1.2 consumer that is no test's: the service's own SIS sync, on
 * both engines. A second school synced from the first one's provider holds the same school as an
 * import of the first one's bundle does: one mapping both ways.
 */
const ONEROSTER_TABLES = [
  'schools',
  'academic_years',
  'terms',
  'subjects',
  'classes',
  'class_subjects',
  'teachers',
  'students',
  'guardians',
  'student_guardians',
  'student_records',
  'teacher_assignments',
  'assessment_categories',
  'assessments',
  'marks',
];
const options = {
  full: false,
  dryRun: false,
  skipInvalid: false,
  fromIdentifier: false,
  strict: false,
  defaultCountryCode: '966',
  wait: async () => undefined,
};

describeEachEngine('a sync from the provider', (engine) => {
  test('gives the school the provider serves', async () => {
    const sourceSettings = engine.freshStoreSettings();
    await importSmallSchool(sourceSettings);
    const { service, secrets } = await startProviderService(sourceSettings, [
      { name: 'other-school', secret: true, operations: ['roster', 'gradebook'] },
    ]);
    const synced = await openTestStore(engine.freshStoreSettings());
    try {
      const sis = readSisSettings({
        SIS_URL: `${service.url}/ims/oneroster/rostering/v1p2`,
        SIS_TOKEN_URL: `${service.url}/oauth/token`,
        SIS_CLIENT_ID: 'other-school',
        SIS_CLIENT_SECRET: secrets['other-school'],
        SIS_PAGE_SIZE: '3',
      });
      const outcome = await syncSchool(synced, sis, options);
      expect(outcome).toMatchObject({ outcome: 'done' });
      const [got, served] = [await schoolRows(synced), await schoolRows(service.store)];
      // The OneRoster records, not the service's own files (attendance, notes ...), which OneRoster does not carry.
      expect(served.marks.length).toBeGreaterThan(0);
      for (const table of ONEROSTER_TABLES) expect([table, got[table]]).toEqual([table, served[table]]);
    } finally {
      await synced.close();
      await service.close();
    }
  });
});

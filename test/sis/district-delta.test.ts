import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { districtSchool, OneRosterProvider, schoolOf } from '../support/oneroster-provider';
import { deltaBundle, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { openTestStore } from '../support/stores';
import { SYNC_TEST_OPTIONS } from '../support/sync-options';

/**
 * A district's provider (two schools) and SIS_SCHOOL: a delta carries what changed, not the class a
 * changed mark's line item belongs to, nor the user of a changed demographics row. What the store
 * already holds is this school's, so such changes are applied; those of the other school stay out.
 */

const options = SYNC_TEST_OPTIONS;

async function idOf(store: Store, kind: string, sourcedId: string): Promise<number | undefined> {
  const row = await store.db
    .selectFrom('roster_ids')
    .select('id')
    .where('kind', '=', kind)
    .where('sourced_id', '=', sourcedId)
    .executeTakeFirst();
  return row?.id;
}

describeEachEngine('a delta sync of one school of a district', (engine) => {
  test.each(['1.1', '1.2'] as const)(
    'applies a changed score, enrolment and demographics row (%s)',
    async (version) => {
      const storeSettings = engine.freshStoreSettings();
      const store = await openTestStore(storeSettings);
      const provider = new OneRosterProvider(schoolOf(districtSchool(), version));
      await provider.start();
      let marksCall: { StudnetID: string; SubjectID: string };
      try {
        const sis = readSisSettings({ ...provider.settings(version), SIS_PAGE_SIZE: '3', SIS_SCHOOL: 'sch-1' });
        const first = await syncSchool(store, sis, options);
        expect(first).toMatchObject({ outcome: 'done', mode: 'bulk', message: '' });
        expect(await idOf(store, 'marks', 'r9')).toBeUndefined();

        const changedAt = new Date(Date.now() + 1000).toISOString();
        const change = (collection: string, sourcedId: string, fields: Record<string, unknown>) =>
          provider.put(collection, {
            ...provider.record(collection, sourcedId),
            ...fields,
            dateLastModified: changedAt,
          });
        change('results', 'r1', { score: 9.5 });
        change('results', 'r9', { score: 1 });
        change('enrollments', 'e2', { beginDate: '2026-09-14' });
        change('enrollments', 'e90', { beginDate: '2026-09-14' });
        change('demographics', 's2', { birthDate: '2013-09-13' });
        const delta = await syncSchool(store, sis, options);
        expect(delta).toMatchObject({ outcome: 'done', mode: 'delta', message: '', problems: 0, added: 0, deleted: 0 });
        expect(delta.changed).toBe(3);
        expect(delta.imported?.changes).toEqual({
          students: { added: 0, changed: 1, deleted: 0 },
          student_records: { added: 0, changed: 1, deleted: 0 },
          marks: { added: 0, changed: 1, deleted: 0 },
        });

        const student = (await idOf(store, 'students', 's2')) as number;
        const birth = await store.db.selectFrom('students').select('birth_date').where('id', '=', student).execute();
        expect(birth).toEqual([{ birth_date: '2013-09-13' }]);
        const record = await store.db
          .selectFrom('student_records')
          .select('enrolled_on')
          .where('id', '=', (await idOf(store, 'student_records', 'e2')) as number)
          .execute();
        expect(record).toEqual([{ enrolled_on: '2026-09-14' }]);
        // The other school's changes stayed out.
        expect(await idOf(store, 'marks', 'r9')).toBeUndefined();
        expect(await idOf(store, 'student_records', 'e90')).toBeUndefined();
        const assessment = (await idOf(store, 'assessments', 'li1')) as number;
        const { subject_id } = await store.db
          .selectFrom('assessments')
          .select('subject_id')
          .where('id', '=', assessment)
          .executeTakeFirstOrThrow();
        marksCall = { StudnetID: String(await idOf(store, 'students', 's1')), SubjectID: String(subject_id) };
      } finally {
        await provider.close();
        await store.close();
      }
      const service = await startTestService({ ...storeSettings, DEMO_DATA: 'off' });
      try {
        const marks = await callJson(service.url, '/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', marksCall);
        expect(marks.status).toBe(200);
        expect(JSON.stringify(marks.body.d)).toContain('9.5');
      } finally {
        await service.close();
      }
    },
  );
});

describeEachEngine('a CSV delta import of one school of a district (--school)', (engine) => {
  test('applies changes to what the store holds and leaves the other school out', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const district = districtSchool();
      expect(problemsOf(await importBundle(store, writeBundle(district), { school: 'sch-1' }))).toEqual([]);
      const changedAt = '2026-11-01T10:00:00Z';
      const changed = (file: string, sourcedId: string, fields: Record<string, string>) => ({
        ...(district[file].find((row) => row.sourcedId === sourcedId) as Record<string, string>),
        ...fields,
        status: 'active',
        dateLastModified: changedAt,
      });
      const delta = deltaBundle({
        results: [changed('results', 'r1', { score: '9.5' }), changed('results', 'r9', { score: '1' })],
        enrollments: [
          changed('enrollments', 'e2', { beginDate: '2026-09-14' }),
          changed('enrollments', 'e90', { beginDate: '2026-09-14' }),
        ],
        demographics: [changed('demographics', 's2', { birthDate: '2013-09-13' })],
      });
      const outcome = await importBundle(store, writeBundle(delta), { school: 'sch-1' });
      expect(problemsOf(outcome)).toEqual([]);
      expect(outcome.written).toBe(true);
      // Left out as the other school's, and said once.
      expect(outcome.problems.notes().map((note) => note.message)).toContain(
        '2 rows of other schools than "sch-1" (and the rows naming them) are not imported',
      );
      const mark = await store.db
        .selectFrom('marks')
        .select('score')
        .where('id', '=', (await idOf(store, 'marks', 'r1')) as number)
        .execute();
      expect(mark).toEqual([{ score: 9.5 }]);
      const student = (await idOf(store, 'students', 's2')) as number;
      const birth = await store.db.selectFrom('students').select('birth_date').where('id', '=', student).execute();
      expect(birth).toEqual([{ birth_date: '2013-09-13' }]);
      expect(await idOf(store, 'marks', 'r9')).toBeUndefined();
      expect(await idOf(store, 'student_records', 'e90')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

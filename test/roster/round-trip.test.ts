import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { smallSchool, withValue, writeBundle, writeZipBundle } from '../support/roster-bundle';
import { importBundle, ledgerRows, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore, TEST_SCHOOL } from '../support/stores';

/**
 * Export writes what import reads: a store exported and imported into a new store gives the same
 * school row for row, ids included, on both engines, the demo school as well. Ids stay the same
 * when a bundle is imported again, and files written as SIS exports write them read the same.
 */
describeEachEngine('exporting and importing again', (engine) => {
  const stores: Store[] = [];
  const fresh = async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    stores.push(store);
    return store;
  };
  const exported = async (store: Store, zip = false) => {
    const path = join(mkdtempSync(join(tmpdir(), 'roster-export-')), zip ? 'school.zip' : 'school');
    await exportSchool(store, path, SILENT_PROGRESS);
    return path;
  };
  const imported = async (path: string) => {
    const store = await fresh();
    const outcome = await importBundle(store, path);
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.written).toBe(true);
    return store;
  };
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  test('the demo school exports and re-imports as the same store, row for row', async () => {
    const demo = await fresh();
    await loadDemoSchool(demo, { ...TEST_SCHOOL, students: 60 });
    const copy = await imported(await exported(demo));
    expect(await schoolRows(copy)).toEqual(await schoolRows(demo));
  });

  test('an imported school round-trips through a zip with its sourcedIds and ids', async () => {
    const first = await imported(writeBundle(smallSchool()));
    const second = await imported(await exported(first, true));
    expect(await schoolRows(second)).toEqual(await schoolRows(first));
    expect(await ledgerRows(second)).toEqual(await ledgerRows(first));
  });

  test('ids stay the same when the school is imported again, and a new record gets a new id', async () => {
    const store = await imported(writeBundle(smallSchool()));
    const before = await schoolRows(store);
    const rows = smallSchool();
    rows.users.unshift({ ...rows.users[2], sourcedId: 's0', givenName: 'Lina', identifier: '' });
    rows.enrollments.unshift({ ...rows.enrollments[2], sourcedId: 'e0', userSourcedId: 's0' });
    expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
    const after = await schoolRows(store);
    for (const table of ['students', 'classes', 'subjects', 'student_records', 'assessments', 'marks', 'exams']) {
      expect(after[table]).toEqual(expect.arrayContaining(before[table]));
    }
    const newcomer = (after.students as Array<{ id: number; name_ar: string }>).find(
      (row) => row.name_ar === 'Lina Hassan',
    );
    const highest = Math.max(...(before.students as Array<{ id: number }>).map((row) => row.id));
    expect(newcomer?.id).toBe(highest + 1);
  });

  test('a bulk import replaces what the previous one brought: a record left out is gone', async () => {
    const store = await imported(writeBundle(smallSchool()));
    const rows = smallSchool();
    rows.results = rows.results.filter((row) => row.sourcedId !== 'r2');
    delete (rows as Partial<typeof rows>).devices;
    expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
    const after = await schoolRows(store);
    expect(after.marks).toHaveLength(3);
    expect(after.devices).toHaveLength(0);
  });

  test('files as SIS exports write them: BOM, CRLF, columns in another order, extra columns, a zip', async () => {
    const plain = await imported(writeBundle(smallSchool()));
    const rows = withValue(smallSchool(), 'users', 's2', 'x-sis-internal', 'ignored, "quoted"');
    const variants = [
      writeBundle(rows, { bom: true, eol: '\r\n' }),
      writeBundle(rows, { reversed: true, eol: '\n' }),
      await writeZipBundle(rows, { bom: true, eol: '\r\n', reversed: true }),
    ];
    for (const path of variants) {
      const store = await imported(path);
      expect(await schoolRows(store)).toEqual(await schoolRows(plain));
    }
  });
});

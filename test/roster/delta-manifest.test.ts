import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { storeDump } from '../support/store-dump';
import { openTestStore } from '../support/stores';

/**
 * A bundle of changes to the service's own files alone declares every OneRoster file absent. Read
 * as bulk it would empty the school and write those few rows in its place: such an import is
 * refused at the manifest line, and a manifest that says `processingMode,delta` is a delta.
 */

const changed = '2026-11-02T08:00:00Z';
const lateness = {
  sourcedId: 'a5',
  status: 'active',
  dateLastModified: changed,
  studentSourcedId: 's1',
  classSourcedId: 'hr-7a',
  date: '2026-11-02',
  kind: 'lateness',
  absenceTypeSourcedId: '',
  minutesLate: '10',
  note: '',
};

/** The attendance changes as a delta of the service's files: every OneRoster file absent. */
function attendanceChanges(processingMode?: string): BundleRows {
  const bundle = deltaBundle({
    attendance: [
      {
        sourcedId: 'a2',
        status: 'tobedeleted',
        dateLastModified: changed,
        studentSourcedId: '',
        classSourcedId: '',
        date: '',
        kind: '',
        absenceTypeSourcedId: '',
        minutesLate: '',
        note: '',
      },
      lateness,
    ],
  } as Partial<BundleRows>);
  if (processingMode === undefined) return bundle;
  return { ...bundle, manifest: [...bundle.manifest, { propertyName: 'processingMode', value: processingMode }] };
}

describeEachEngine('a delta manifest of no OneRoster file', (engine) => {
  let store: Store;

  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
    expect(problemsOf(await importBundle(store, writeBundle(smallSchool())))).toEqual([]);
  });
  afterAll(() => store.close());

  test('read as bulk, is refused at the manifest line and changes nothing, with --skip-invalid too', async () => {
    const before = await storeDump(store);
    const bundle = writeBundle(attendanceChanges());
    for (const options of [{}, { skipInvalid: true }, { mode: 'bulk' as const }]) {
      const outcome = await importBundle(store, bundle, options);
      expect(outcome.written).toBe(false);
      expect(outcome.mode).toBe('bulk');
      // Line 1 is the header, 2 and 3 the versions: line 4 is the first file's, absent. (Read as
      // bulk, the rows name a pupil and a class the bundle lacks too: --skip-invalid would leave
      // them out and write an empty school, were the manifest not refused whole.)
      expect(problemsOf(outcome)[0]).toMatchObject({ file: 'manifest.csv', line: 4, rule: 'bulk-of-nothing' });
      expect(problemsOf(outcome)[0]?.message).toMatch(/every OneRoster file absent.*--mode delta/);
      expect(outcome.problems.unskippable().map((refusal) => refusal.problem.rule)).toEqual(['bulk-of-nothing']);
    }
    expect(await storeDump(store)).toEqual(before);
  });

  test('a processingMode that is neither bulk nor delta is a problem at its line', async () => {
    const outcome = await importBundle(store, writeBundle(attendanceChanges('incremental')), { dryRun: true });
    expect(problemsOf(outcome)).toContainEqual(
      expect.objectContaining({
        file: 'manifest.csv',
        rule: 'unknown-value',
        message: expect.stringMatching(/incremental/),
      }),
    );
  });

  test('processingMode delta makes it a delta: the changes are applied, the rest kept whole', async () => {
    const before = await storeDump(store);
    const outcome = await importBundle(store, writeBundle(attendanceChanges('delta')));
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome).toMatchObject({ written: true, mode: 'delta' });
    expect(outcome.changes).toEqual({ attendance: { added: 1, changed: 0, deleted: 1 } });
    const after = await storeDump(store);
    // Everything export gives back stays, but the attendance the delta changed.
    expect(after.kept).toEqual(before.kept);
    for (const table of Object.keys(before.tables).filter((name) => name !== 'attendance'))
      expect(after.tables[table]).toEqual(before.tables[table]);
    expect(after.tables.attendance).toHaveLength(before.tables.attendance.length);
    expect(after.tables.attendance.join('\n')).toContain('a5 ');
    expect(after.tables.attendance.join('\n')).not.toContain('a2 ');
  });

  test('--mode delta applies the same bundle without processingMode', async () => {
    const before = await storeDump(store);
    const again = { ...lateness, dateLastModified: '2026-11-03T08:00:00Z', minutesLate: '25' };
    const bundle = deltaBundle({ attendance: [again] } as Partial<BundleRows>);
    const outcome = await importBundle(store, writeBundle(bundle), { mode: 'delta' });
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.changes).toEqual({ attendance: { added: 0, changed: 1, deleted: 0 } });
    const after = await storeDump(store);
    expect(after.kept).toEqual(before.kept);
    expect(after.tables.students).toEqual(before.tables.students);
    expect(after.tables.attendance.join('\n')).toContain('"minutes_late":25');
  });
});

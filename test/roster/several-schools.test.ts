import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import type { Store } from '../../src/store/open-store';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { districtBundle as district } from '../support/district-bundle';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';
import { TEST_SCHOOL } from '../support/stores';

/**
 * A district's export of two schools with a teacher shared: --school (IMPORT_SCHOOL) picks one,
 * with the users whose orgSourcedIds name it; without it nothing is written and the schools are
 * listed. A bulk import never silently replaces another school of the store.
 */
describeEachEngine('a bundle of several schools', (engine) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(engine.freshStoreSettings());
  });
  afterEach(() => store.close());
  const names = async (table: 'students' | 'teachers' | 'schools' | 'subjects') =>
    (await store.db.selectFrom(table).select('name_en').orderBy('name_en').execute()).map((row) => row.name_en);

  test('without --school nothing is written and each school is listed', async () => {
    const outcome = await importBundle(store, writeBundle(district()));
    expect(outcome.written).toBe(false);
    expect(outcome.schools).toEqual([
      { sourcedId: 'sch-1', name: 'مدرسة الأمل', identifier: '' },
      { sourcedId: 'sch-2', name: 'مدرسة النور', identifier: 'NOOR' },
    ]);
    expect(await names('students')).toEqual([]);
  });

  test('--school picks one: its classes and users, a shared teacher in both, the district not stored', async () => {
    const first = await importBundle(store, writeBundle(district()), { school: 'sch-1' });
    expect(problemsOf(first)).toEqual([]);
    expect(await names('schools')).toEqual(['Al-Amal School']);
    expect(await names('students')).toEqual(['Omar Hassan', 'Sara Ali', 'عبدالرحمن خالد العتيبي']);
    expect(await names('subjects')).toEqual(['Mathematics', 'Science']);
    expect(first.problems.notes().map((note) => note.kind)).toContain('other-schools');

    const other = await openTestStore(engine.freshStoreSettings());
    try {
      const second = await importBundle(other, writeBundle(district()), { school: 'sch-2' });
      expect(problemsOf(second)).toEqual([]);
      const teachers = await other.db.selectFrom('teachers').select('name_en').execute();
      expect(teachers.map((row) => row.name_en)).toEqual(['Mona Saleh']);
      const students = await other.db.selectFrom('students').select('name_en').execute();
      expect(students.map((row) => row.name_en)).toEqual(['Omar Hassan']);
      expect(await other.db.selectFrom('teacher_assignments').select('id').execute()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  test('a --school no org of type school has is a problem', async () => {
    const outcome = await importBundle(store, writeBundle(district()), { school: 'dist-1' });
    expect(problemsOf(outcome)[0]).toMatchObject({ file: 'orgs.csv', rule: 'unknown-reference' });
    expect(outcome.written).toBe(false);
  });

  test('a bulk import over another school writes nothing without --replace and says what it would remove', async () => {
    expect(problemsOf(await importBundle(store, writeBundle(district()), { school: 'sch-1' }))).toEqual([]);
    const refused = await importBundle(store, writeBundle(district()), { school: 'sch-2' });
    expect(refused.written).toBe(false);
    expect(refused.replaces).toMatchObject({ name: 'Al-Amal School', sourcedId: 'sch-1' });
    expect(refused.replaces?.counts.get('students')).toBe(3);
    expect(await names('schools')).toEqual(['Al-Amal School']);
    const replaced = await importBundle(store, writeBundle(district()), { school: 'sch-2', replace: true });
    expect(replaced.written).toBe(true);
    expect(await names('schools')).toEqual(['Al-Noor School']);
    expect(replaced.changes?.students).toEqual({ added: 1, changed: 0, deleted: 3 });
  });

  test('the demo school is another school too; the same school again is no replacement', async () => {
    await loadDemoSchool(store, { ...TEST_SCHOOL, students: 20 });
    const refused = await importBundle(store, writeBundle(smallSchool()));
    expect(refused.replaces).toMatchObject({ sourcedId: null });
    expect(refused.replaces?.counts.get('students')).toBe(20);
    expect((await importBundle(store, writeBundle(smallSchool()), { replace: true })).written).toBe(true);
    const again = await importBundle(store, writeBundle(smallSchool()));
    expect(again.written).toBe(true);
    expect(again.changes?.students).toEqual({ added: 0, changed: 3, deleted: 0 });
  });
});

describe('school-service import with several schools', () => {
  const folder = mkdtempSync(join(tmpdir(), 'school-district-'));
  const run = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '', ...env },
      encoding: 'utf8',
    });

  test('lists the schools and exits 2; IMPORT_SCHOOL picks one; summaries count added, changed and deleted', () => {
    const bundle = writeBundle(district());
    const listed = run({}, 'import', bundle);
    expect(listed.status).toBe(2);
    expect(listed.stdout).toContain(
      'the bundle holds 2 schools; choose one with --school SOURCEDID (or IMPORT_SCHOOL)',
    );
    expect(listed.stdout).toContain('--school sch-2  مدرسة النور (identifier NOOR)');
    const done = run({ IMPORT_SCHOOL: 'sch-1' }, 'import', bundle);
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('3 students (3 added)');
    expect(done.stderr).toMatch(/^writing students: 3 rows in [\d.]+ s$/m);
    const other = run({}, 'import', bundle, '--school', 'sch-2');
    expect(other.status).toBe(2);
    expect(other.stdout).toContain('the store holds another school, Al-Amal School (sourcedId "sch-1")');
    expect(other.stdout).toContain('removing 1 schools, 1 academic years');
    expect(other.stdout).toContain('3 students');
    const replaced = run({}, 'import', bundle, '--school', 'sch-2', '--replace');
    expect(replaced.status).toBe(0);
    expect(replaced.stdout).toContain('1 students (1 added, 3 deleted)');
  });
});

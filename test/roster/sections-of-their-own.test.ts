import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * Scheduled classes whose students have no class section, each with a class code of its own (a
 * university's export): each class is taught to a section of its own, two classes of one course
 * included, so that each keeps its teacher.
 */
describeEachEngine('scheduled classes of one course in sections of their own', (engine) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(engine.freshStoreSettings());
  });
  afterAll(() => store.close());

  test('each class is a subject of its own section, with its own teacher', async () => {
    const rows = smallSchool();
    rows.classes = rows.classes
      .filter((row) => row.classType !== 'homeroom')
      .map((row) => ({ ...row, grades: '', classCode: row.sourcedId.toUpperCase() }));
    for (const row of rows.classes) delete row['metadata.homeroomSourcedId'];
    rows.enrollments = rows.enrollments.filter((row) => !row.classSourcedId.startsWith('hr-'));
    for (const own of ['attendance', 'classNotes', 'examSlots', 'exams']) delete rows[own];
    const outcome = await importBundle(store, writeBundle(rows));
    expect(problemsOf(outcome)).toEqual([]);
    const sections = await store.db
      .selectFrom('class_subjects as taught')
      .innerJoin('classes as class', 'class.id', 'taught.class_id')
      .select('class.section')
      .orderBy('class.section')
      .execute();
    expect(sections.map((row) => row.section)).toEqual(['MATH-7A', 'MATH-7B', 'SCI-7A']);
    expect(await store.db.selectFrom('teacher_assignments').select('id').execute()).toHaveLength(3);
  });
});

import { describeEachEngine } from '../support/engines';
import { importedDumps } from '../support/imported-dumps';
import { type BundleRows, smallSchool } from '../support/roster-bundle';

/**
 * A delta that changes scheduled classes without listing their pupils' enrolments (a new title)
 * leaves each class taught to the class section it was: the same store as a bulk import of the
 * changed school, the pupils' marks kept; two classes of one subject in one section stay one.
 */
const CHANGED = '2026-11-01T10:00:00.000Z';

function school(): BundleRows {
  const rows = smallSchool();
  const math = rows.classes.find((row) => row.sourcedId === 'math-7a') as Record<string, string>;
  rows.classes.push({ ...math, sourcedId: 'math-7a-extra', title: 'Math 7A extra' });
  rows.enrollments.push({ ...rows.enrollments[3], sourcedId: 'e-extra', classSourcedId: 'math-7a-extra' });
  return rows;
}

function retitled(rows: BundleRows, titles: Record<string, string>): BundleRows {
  const copy = structuredClone(rows);
  for (const row of copy.classes) if (titles[row.sourcedId]) row.title = titles[row.sourcedId];
  return copy;
}

function classesDelta(rows: BundleRows, sourcedIds: string[]): BundleRows {
  return {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      { propertyName: 'file.classes', value: 'delta' },
    ],
    classes: rows.classes
      .filter((row) => sourcedIds.includes(row.sourcedId))
      .map((row) => ({ ...row, status: 'active', dateLastModified: CHANGED })),
  };
}

describeEachEngine('a delta of scheduled classes alone', (engine) => {
  const { imported, close } = importedDumps(engine);
  afterAll(close);

  test('a class retitled stays taught to its pupils section, with their marks', async () => {
    const titles = { 'math-7a': 'Mathematics 7A', 'math-7b': 'Mathematics 7B' };
    const changed = retitled(school(), titles);
    const delta = await imported(school(), classesDelta(changed, Object.keys(titles)));
    expect(delta.tables).toEqual((await imported(changed)).tables);
    expect(delta.tables.marks).toHaveLength(4);
  });

  test('a new class of a stored class subject and section, listed first, is the stored one', async () => {
    const rows = school();
    rows.classes = rows.classes.filter((row) => row.sourcedId !== 'math-7a-extra');
    rows.enrollments = rows.enrollments.filter((row) => row.sourcedId !== 'e-extra');
    const titles = { 'math-7a-extra': 'Mathematics 7A extra', 'math-7a': 'Mathematics 7A' };
    const changed = retitled(school(), titles);
    const delta = classesDelta(changed, Object.keys(titles));
    delta.classes.reverse();
    delta.manifest.push({ propertyName: 'file.enrollments', value: 'delta' });
    delta.enrollments = [{ ...changed.enrollments[3], sourcedId: 'e-extra', classSourcedId: 'math-7a-extra' }].map(
      (row) => ({ ...row, status: 'active', dateLastModified: CHANGED }),
    );
    expect((await imported(rows, delta)).tables).toEqual((await imported(changed)).tables);
  });

  test('the second class of a subject and section, listed again, stays the first', async () => {
    const titles = { 'math-7a-extra': 'Mathematics 7A extra' };
    const changed = retitled(school(), titles);
    const delta = await imported(school(), classesDelta(changed, Object.keys(titles)));
    expect(delta.tables).toEqual((await imported(changed)).tables);
    expect(delta.tables.class_subjects).toHaveLength(3);
  });
});

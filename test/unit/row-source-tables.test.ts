import { schoolSourcedId, storedById, storedRows } from '../../src/roster/collections/collection';
import { NAMED_TABLES } from '../../src/roster/collections/registry';
import { SchoolSnapshot } from '../../src/roster/school-snapshot';
import type { ImportConnection } from '../../src/store/roster/import-connection';

/**
 * A row source finds in the snapshot only the tables its module declares (`export.reads`): a table
 * no module declares is refused, not read as empty, so that a module cannot read a table that the
 * reading does not load (and that the provider's copy may not be told of) without saying so.
 */

function snapshotWithout(table: string): SchoolSnapshot {
  const snapshot = new SchoolSnapshot({} as ImportConnection);
  for (const loaded of NAMED_TABLES) if (loaded !== table) snapshot.rows.set(loaded, []);
  return snapshot;
}

test('the modules declare the tables a reading loads; one none declares is refused by every way of reading it', () => {
  expect(NAMED_TABLES).toEqual(expect.arrayContaining(['schools', 'students', 'assessments', 'exams']));
  const withoutSchools = snapshotWithout('schools');
  expect(() => storedRows(withoutSchools, 'schools')).toThrow('the table schools is read by a row source');
  expect(() => storedById(withoutSchools, 'schools')).toThrow('does not declare it');
  expect(() => withoutSchools.ref('schools', 1)).toThrow('does not declare it');
  expect(() => schoolSourcedId(withoutSchools)).toThrow('does not declare it');
  expect(storedRows(withoutSchools, 'students')).toEqual([]);
});

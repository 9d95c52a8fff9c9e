import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { positionOf, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * --ids from-identifier: a school moving from the legacy system keeps the ids its clients hold,
 * taken from each user's integer identifier (or a numeric sourcedId); two rows wanting one id is
 * an error naming both.
 */
describeEachEngine('ids from the identifier', (engine) => {
  const stores: Store[] = [];
  const fresh = async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  test('users get their identifier, or their numeric sourcedId, as their id', async () => {
    const store = await fresh();
    const rows = smallSchool();
    rows.users.push({ ...rows.users[2], sourcedId: '77', identifier: '', agentSourcedIds: '' });
    expect(problemsOf(await importBundle(store, writeBundle(rows), { fromIdentifier: true }))).toEqual([]);
    const ids = async (table: 'students' | 'teachers' | 'guardians') =>
      (await store.db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => row.id);
    expect(await ids('students')).toEqual([77, 1001, 1002, 1003]);
    expect(await ids('teachers')).toEqual([501, 502]);
    expect(await ids('guardians')).toEqual([9001, 9002]);
    // Without the option, ids are the store's own, counting from 1.
    const assigned = await fresh();
    expect(problemsOf(await importBundle(assigned, writeBundle(rows)))).toEqual([]);
    const own = (await assigned.db.selectFrom('students').select('id').orderBy('id').execute()).map((row) => row.id);
    expect(own).toEqual([1, 2, 3, 4]);
  });

  test('two users with one identifier are a clash naming both rows, and nothing is written', async () => {
    const store = await fresh();
    const rows = withValue(smallSchool(), 'users', 's2', 'identifier', '1001');
    const outcome = await importBundle(store, writeBundle(rows), { fromIdentifier: true });
    expect(outcome.written).toBe(false);
    const clash = problemsOf(outcome).find((problem) => problem.rule === 'id-clash');
    expect(clash).toMatchObject({ file: 'users.csv', ...positionOf(rows, 'users', 's2', 'identifier') });
    expect(clash?.message).toContain('users.csv:2');
    expect(clash?.message).toContain('users.csv:3');
    expect(Object.values(await schoolRows(store)).every((table) => table.length === 0)).toBe(true);
  });
});

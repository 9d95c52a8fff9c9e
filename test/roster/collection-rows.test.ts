import type { Cell } from '../../src/roster/collections/collection';
import { ONEROSTER_COLLECTIONS, OWN_FILE_COLLECTIONS } from '../../src/roster/collections/registry';
import { collectionHeader, collectionRows, openSchoolRows } from '../../src/roster/school-rows';
import { openImportConnection } from '../../src/store/roster/import-connection';
import { describeEachEngine } from '../support/engines';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * The row sources a reader of the store's records pages over (the export, a REST provider): each
 * collection's rows are the records the store holds, under the sourcedIds they were imported with,
 * keyed by the columns of the collection's file.
 */
const collection = (name: string) => {
  const found = [...ONEROSTER_COLLECTIONS, ...OWN_FILE_COLLECTIONS].find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no collection ${name}`);
  return found;
};

describeEachEngine('the collections read from the store', (engine) => {
  test('each collection gives the records the store holds, keyed by its columns, and stops when left', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    const rows = smallSchool();
    rows.results[0] = { ...rows.results[0], comment: 'well done' };
    try {
      expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
      const connection = await openImportConnection(store.connection);
      try {
        const source = await openSchoolRows(connection);
        const read = async (name: string) => {
          const part = collection(name).export;
          const header = await collectionHeader(source, part);
          const records: Readonly<Record<string, Cell>>[] = [];
          for await (const record of collectionRows(source, part)) {
            // Every column a row fills is one of its file's header.
            for (const column of Object.keys(record)) expect(header).toContain(column);
            records.push(record);
          }
          return records;
        };
        const users = await read('users');
        // The administrator is no record of the store: not a row.
        const imported = rows.users.filter((user) => user.role !== 'administrator');
        expect(users.map((user) => user.sourcedId).sort()).toEqual(imported.map((user) => user.sourcedId).sort());
        expect(users.find((user) => user.sourcedId === 's3')).toMatchObject({ role: 'student', agentSourcedIds: 'g2' });
        const results = await read('results');
        expect(results.map((result) => [result.sourcedId, result.lineItemSourcedId, result.studentSourcedId])).toEqual(
          rows.results.map((result) => [result.sourcedId, result.lineItemSourcedId, result.studentSourcedId]),
        );
        // A kept field comes with its row, under the file's column.
        expect(results[0]).toMatchObject({ sourcedId: 'r1', score: 8.5, comment: 'well done' });
        const attendance = await read('attendance');
        expect(attendance.map((row) => row.sourcedId)).toEqual(rows.attendance.map((row) => row.sourcedId));
        // A reader that has what it asked for leaves the loop: the rest is not read.
        let taken = 0;
        for await (const record of collectionRows(source, collection('results').export)) {
          taken += record.sourcedId === 'r2' ? 1 : 0;
          if (taken > 0) break;
        }
        expect(taken).toBe(1);
      } finally {
        await connection.release();
      }
    } finally {
      await store.close();
    }
  });
});

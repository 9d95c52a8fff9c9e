import { type Kysely, sql } from 'kysely';
import type { TablesRead } from '../../src/roster/collections/collection';
import { NAMED_TABLES, ONEROSTER_COLLECTIONS } from '../../src/roster/collections/registry';
import type { Store } from '../../src/store/open-store';
import { rosterVersion } from '../../src/store/queries/roster-version';
import { describeEachEngine } from '../support/engines';
import { openTestSchool } from '../support/stores';

/**
 * The provider keeps the school's OneRoster files but the marks' in memory until roster_versions
 * moves (src/provider/school-copy.ts), and only the triggers migrations made move it. So every
 * table a reading of those files reads must be counted, on a store as migrations leave it: the
 * tables the collection modules declare they read whole (a reading loads them all, and the
 * sourcedIds they hold decide which kept rows are given back), the tables a OneRoster file reads a
 * page at a time but the marks (read afresh on each request), and what every reading reads beside
 * them. A module that declares a table no trigger counts fails here until a migration counts it.
 */

/** What a reading reads beside the modules' tables: the guardian links, the ledger of sourcedIds, the kept fields. */
const READING_TABLES = ['student_guardians', 'roster_ids', 'roster_fields'];

const FILES: readonly { readonly export: { readonly reads: TablesRead } }[] = ONEROSTER_COLLECTIONS;

const COPIED_TABLES = [
  ...new Set<string>([
    ...NAMED_TABLES,
    ...FILES.flatMap((file) => file.export.reads.paged ?? []).filter((table) => table !== 'marks'),
    ...READING_TABLES,
  ]),
];

describeEachEngine('the tables the provider’s copy is read from', (engine) => {
  let store: Store;
  const db = () => store.db as unknown as Kysely<unknown>;
  const rowsOf = async (table: string, where = sql`1 = 1`) => {
    const { rows } = await sql<{
      count: unknown;
    }>`select count(*) as count from ${sql.table(table)} where ${where}`.execute(db());
    return Number(rows[0]?.count);
  };
  /** Writes the rows `where` picks back as they are: no value changes, but every trigger on the table runs. */
  const rewrite = async (table: string, where = sql`1 = 1`) => {
    const column = (await store.engine.columns(db())).find((each) => each.table === table)?.column;
    if (!column) throw new Error(`the store has no table ${table}`);
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)} where ${where}`.execute(db());
  };

  beforeAll(async () => {
    store = await openTestSchool(engine.freshStoreSettings());
    // Only an import writes the ledger and the kept fields: a row of each as one leaves them, and a mark's.
    const student = await store.db.selectFrom('students').select('id').executeTakeFirstOrThrow();
    const mark = await store.db.selectFrom('marks').select('id').executeTakeFirstOrThrow();
    await store.db
      .insertInto('roster_ids')
      .values([
        { kind: 'students', sourced_id: 'st-copied', id: student.id, modified_at: null },
        { kind: 'marks', sourced_id: 'mark-copied', id: mark.id, modified_at: null },
      ])
      .execute();
    await store.db
      .insertInto('roster_fields')
      .values({ file: 'users.csv', sourced_id: 'st-copied', fields: '{}' })
      .execute();
  });
  afterAll(() => store?.close());

  test.each(COPIED_TABLES)('a change to %s moves the version', async (table) => {
    // SQLite's triggers run for each row: a table without rows would prove nothing.
    expect([table, (await rowsOf(table)) > 0]).toEqual([table, true]);
    const before = await rosterVersion(store);
    await rewrite(table);
    expect([table, (await rosterVersion(store)) > before]).toEqual([table, true]);
  });

  test('a change to the marks or their ledger leaves it: the copy holds no marks', async () => {
    const ofMarks = sql`kind = 'marks'`;
    expect(Math.min(await rowsOf('marks'), await rowsOf('roster_ids', ofMarks))).toBeGreaterThan(0);
    const before = await rosterVersion(store);
    await rewrite('marks');
    await rewrite('roster_ids', ofMarks);
    expect(await rosterVersion(store)).toBe(before);
  });

  // The outline of users.csv an import saves (roster_outlines) holds while this version holds.
  const usersVersion = async () =>
    Number((await store.db.selectFrom('roster_users_versions').select('version').executeTakeFirstOrThrow()).version);
  const USERS_READ = ['students', 'teachers', 'guardians'];

  test.each(USERS_READ)("a change to %s moves the users' version", async (table) => {
    expect([table, (await rowsOf(table)) > 0]).toEqual([table, true]);
    const before = await usersVersion();
    await rewrite(table);
    expect([table, (await usersVersion()) > before]).toEqual([table, true]);
  });

  test("the users' ledger and kept fields move the users' version; other tables and rows leave it", async () => {
    const ofUsers = [sql`kind = 'students'`, sql`file = 'users.csv'`];
    let before = await usersVersion();
    await rewrite('roster_ids', ofUsers[0]);
    expect(await usersVersion()).toBeGreaterThan(before);
    before = await usersVersion();
    await rewrite('roster_fields', ofUsers[1]);
    expect(await usersVersion()).toBeGreaterThan(before);
    before = await usersVersion();
    for (const table of COPIED_TABLES.filter((each) => !USERS_READ.includes(each) && !each.startsWith('roster_')))
      await rewrite(table);
    await rewrite('roster_ids', sql`kind = 'marks'`);
    await rewrite('marks');
    expect(await usersVersion()).toBe(before);
  });
});

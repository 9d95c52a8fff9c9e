import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { importedDumps } from '../support/imported-dumps';
import { type BundleRows, deltaBundle, smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf } from '../support/roster-import';
import { storeDump } from '../support/store-dump';
import { openTestStore } from '../support/stores';

/**
 * What a delta leaves of the rows it does not list gives the store a bulk import of the changed
 * school gives: a user or a scheduled class deleted alone takes the enrolments (and a class its
 * line items) naming it with it, kept fields included; a teacher's two assignment rows that teach
 * one thing (kept by an older version, one per enrolment) are one from the next delta on.
 */
const CHANGED = '2026-11-01T10:00:00.000Z';

type Row = Record<string, string>;

const deleted = (row: Row) => ({ ...row, status: 'tobedeleted', dateLastModified: CHANGED });
const without = (list: Row[] | undefined, drop: (row: Row) => boolean) => (list ?? []).filter((row) => !drop(row));

describeEachEngine('a delta that deletes what other rows name', (engine) => {
  const { imported, close } = importedDumps(engine);
  const stores: Store[] = [];
  afterAll(async () => {
    await close();
    for (const store of stores) await store.close();
  });

  test('a user deleted without their enrolments leaves none of them, kept rows included', async () => {
    const rows = smallSchool();
    const gone = new Set(['s1', 't-2']);
    const end = structuredClone(rows);
    end.users = without(end.users, (row) => gone.has(row.sourcedId));
    end.demographics = without(end.demographics, (row) => gone.has(row.sourcedId));
    end.enrollments = without(end.enrollments, (row) => gone.has(row.userSourcedId));
    end.results = without(end.results, (row) => gone.has(row.studentSourcedId));
    end.attendance = without(end.attendance, (row) => gone.has(row.studentSourcedId));
    end.studentNotes = without(end.studentNotes, (row) => gone.has(row.studentSourcedId));
    const delta = deltaBundle({ users: rows.users.filter((row) => gone.has(row.sourcedId)).map(deleted) });
    const bulk = await imported(end);
    expect(Object.keys(bulk.kept).filter((key) => key.startsWith('enrollments.csv '))).not.toContain(
      'enrollments.csv e4',
    );
    expect(await imported(rows, delta)).toEqual(bulk);
  });

  test("a pupil's demographics row deleted alone ends their birth date and sex, not the pupil", async () => {
    const rows = smallSchool();
    const end = structuredClone(rows);
    end.demographics = without(end.demographics, (row) => row.sourcedId === 's1');
    const delta = deltaBundle({
      demographics: rows.demographics?.filter((row) => row.sourcedId === 's1').map(deleted),
    });
    const bulk = await imported(end);
    expect(bulk.tables.students.some((row) => row.startsWith('s1 '))).toBe(true);
    expect(await imported(rows, delta)).toEqual(bulk);
  });

  test("a scheduled class deleted alone takes its teacher's assignment and its line item with it", async () => {
    const rows = smallSchool();
    const end = structuredClone(rows);
    end.classes = without(end.classes, (row) => row.sourcedId === 'math-7b');
    end.enrollments = without(end.enrollments, (row) => row.classSourcedId === 'math-7b');
    end.lineItems = without(end.lineItems, (row) => row.classSourcedId === 'math-7b');
    end.results = without(end.results, (row) => row.lineItemSourcedId === 'li3');
    const delta = deltaBundle({ classes: rows.classes.filter((row) => row.sourcedId === 'math-7b').map(deleted) });
    const bulk = await imported(end);
    expect(bulk.tables.assessments.some((row) => row.startsWith('li3 '))).toBe(false);
    expect(bulk.tables.teacher_assignments.some((row) => row.startsWith('e9 '))).toBe(false);
    expect(await imported(rows, delta)).toEqual(bulk);
  });

  test("a teacher's two assignment rows of one subject and section are one after the next delta", async () => {
    // t-1 teaches math-7a once a term: one assignment (e7), e7-t2 its other name.
    const school = (): BundleRows => {
      const rows = smallSchool();
      const e7 = rows.enrollments.find((row) => row.sourcedId === 'e7') as Row;
      rows.enrollments.push({ ...e7, sourcedId: 'e7-t2', beginDate: '2027-01-16' });
      return rows;
    };
    const store = await openTestStore(engine.freshStoreSettings());
    stores.push(store);
    expect(problemsOf(await importBundle(store, writeBundle(school())))).toEqual([]);
    await asAnOlderVersionKeptIt(store, 'e7-t2');
    expect((await storeDump(store)).tables.teacher_assignments).toHaveLength(4);
    // A delta that changes something else: a user's name.
    const s2 = school().users.find((row) => row.sourcedId === 's2') as Row;
    const renamed = { ...s2, givenName: 'Sarah', dateLastModified: CHANGED, status: 'active' };
    expect(problemsOf(await importBundle(store, writeBundle(deltaBundle({ users: [renamed] }))))).toEqual([]);
    const end = school();
    end.users = end.users.map((row) => (row.sourcedId === 's2' ? { ...row, givenName: 'Sarah' } : row));
    expect(await storeDump(store)).toEqual(await imported(end));
  });
});

/** An enrolment's assignment as a version before one row per teacher, section and subject kept it: a row of its own. */
async function asAnOlderVersionKeptIt(store: Store, sourcedId: string): Promise<void> {
  const alias = await store.db
    .selectFrom('roster_ids')
    .select('id')
    .where('kind', '=', 'teacher_assignment_aliases')
    .where('sourced_id', '=', sourcedId)
    .executeTakeFirstOrThrow();
  const row = await store.db
    .selectFrom('teacher_assignments')
    .selectAll()
    .where('id', '=', alias.id)
    .executeTakeFirstOrThrow();
  const top = await store.db
    .selectFrom('teacher_assignments')
    .select((eb) => eb.fn.max('id').as('top'))
    .executeTakeFirstOrThrow();
  const id = Number(top.top) + 1;
  await store.db
    .insertInto('teacher_assignments')
    .values({ ...row, id })
    .execute();
  await store.db
    .deleteFrom('roster_ids')
    .where('kind', '=', 'teacher_assignment_aliases')
    .where('sourced_id', '=', sourcedId)
    .execute();
  await store.db
    .insertInto('roster_ids')
    .values({ kind: 'teacher_assignments', sourced_id: sourcedId, id, modified_at: null })
    .execute();
}

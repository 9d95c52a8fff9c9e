import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../../src/store/migrate';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { storeIsEmpty } from '../../src/store/queries/store-facts';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { openTestSchool, openTestStore, TEST_SCHOOL } from '../support/stores';

/** A digest of a table's rows in id order: equal digests mean equal contents. */
async function tableDigest(
  store: Store,
  table: 'students' | 'marks' | 'attendance' | 'guardians' | 'exam_slots',
): Promise<string> {
  const rows = await store.db.selectFrom(table).selectAll().orderBy('id').execute();
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

const count = async (
  store: Store,
  table: 'students' | 'student_records' | 'classes' | 'marks' | 'attendance' | 'devices' | 'exam_slots' | 'note_types',
) =>
  Number(
    (
      await store.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  );

describeEachEngine('the store', (engine) => {
  let school: Store;
  beforeAll(async () => {
    school = await openTestSchool(engine.freshStoreSettings());
  });
  afterAll(() => school.close());

  test('is created and migrated on open, and migrating again changes nothing', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      expect(store.engine.name).toBe(engine.engine);
      expect(await storeIsEmpty(store)).toBe(true);
      expect(await migrateToLatest(store.db as unknown as Kysely<unknown>, store.engine)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  test('the demo school has the legacy identifier forms: integers counting from 1', async () => {
    for (const table of ['students', 'student_records', 'classes', 'teachers', 'subjects', 'terms', 'exams'] as const) {
      const ids = (await school.db.selectFrom(table).select('id').orderBy('id').execute()).map((row) => row.id);
      expect(ids[0]).toBe(1);
      expect(ids[ids.length - 1]).toBe(ids.length);
    }
  });

  test('the demo school is a realistic school', async () => {
    expect(await count(school, 'students')).toBe(TEST_SCHOOL.students);
    expect(await count(school, 'student_records')).toBe(TEST_SCHOOL.students);
    expect(await count(school, 'classes')).toBeGreaterThanOrEqual(12);
    expect(await count(school, 'marks')).toBeGreaterThan(TEST_SCHOOL.students * 8 * 9 - 1);
    expect(await count(school, 'attendance')).toBeGreaterThan(TEST_SCHOOL.students * 2);
    expect(await count(school, 'devices')).toBeGreaterThan(0);
    expect(await count(school, 'exam_slots')).toBeGreaterThan(0);
    expect(await count(school, 'note_types')).toBe(6);
    const student = await school.db.selectFrom('students').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(student.name_ar).toMatch(/^[\u0600-\u06FF ]+$/);
    expect(student.name_en).toMatch(/^[A-Za-z' -]+$/);
    const guardian = await school.db.selectFrom('guardians').select('phone').limit(1).executeTakeFirstOrThrow();
    expect(guardian.phone).toMatch(/^\+9665\d{8}$/);
  });

  test('the same seed gives the same school; another seed another one', async () => {
    const again = await openTestSchool(engine.freshStoreSettings());
    const other = await openTestStore(engine.freshStoreSettings());
    try {
      await loadDemoSchool(other, { ...TEST_SCHOOL, seed: TEST_SCHOOL.seed + 1 });
      for (const table of ['students', 'marks', 'attendance', 'guardians', 'exam_slots'] as const) {
        expect(await tableDigest(again, table)).toBe(await tableDigest(school, table));
      }
      expect(await tableDigest(other, 'students')).not.toBe(await tableDigest(school, 'students'));
    } finally {
      await again.close();
      await other.close();
    }
  });

  test('rows added after a demo load get the next identifiers', async () => {
    const inserted = await school.db
      .insertInto('note_types')
      .values({ name_ar: 'انضباط', name_en: 'Discipline', is_positive: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(inserted.id).toBe(7);
    await school.db.deleteFrom('note_types').where('id', '=', 7).execute();
  });

  test('Arabic text is stored and read back unchanged', async () => {
    const text = 'ملاحظة: الطالب "محمد" حصل على 95٪ في Math — ممتاز ✓';
    const { id } = await school.db
      .insertInto('note_types')
      .values({ name_ar: text, name_en: 'x', is_positive: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await school.db
      .selectFrom('note_types')
      .select('name_ar')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await school.db.deleteFrom('note_types').where('id', '=', id).execute();
    expect(row.name_ar).toBe(text);
    expect((await sql<{ ok: number }>`select 1 as ok`.execute(school.db)).rows[0].ok).toBe(1);
  });

  test('a failed demo load leaves nothing behind', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      const failing = loadDemoSchool(store, {
        ...TEST_SCHOOL,
        onProgress: () => {
          throw new Error('interrupted');
        },
      });
      await expect(failing).rejects.toThrow('interrupted');
      expect(await storeIsEmpty(store)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

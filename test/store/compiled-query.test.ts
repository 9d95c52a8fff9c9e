import { sql } from 'kysely';
import { compiledQuery } from '../../src/store/compiled-query';
import type { Store } from '../../src/store/open-store';
import { inTransaction } from '../../src/store/session';
import { describeEachEngine } from '../support/engines';
import { statementsSentDuring } from '../support/pg-statements';
import { openTestSchool } from '../support/stores';

/** Queries built and compiled once, run with each call's parameters, on both engines. */
describeEachEngine('compiled queries', ({ engine, freshStoreSettings }) => {
  let store: Store | undefined;
  beforeAll(async () => {
    store = await openTestSchool(freshStoreSettings());
  });
  afterAll(() => store?.close());

  const studentsOfClass = compiledQuery((db, p: { classId: number; after: number }) =>
    db
      .selectFrom('student_records')
      .select(['student_id as studentId'])
      .where('class_id', '=', p.classId)
      .where('student_id', '>', p.after)
      .orderBy('student_id')
      .limit(3),
  );

  test('each call runs with its own parameters, and constants stay as written', async () => {
    const session = store as Store;
    const classes = await session.db.selectFrom('classes').select('id').orderBy('id').limit(2).execute();
    for (const { id: classId } of classes) {
      const expected = await session.db
        .selectFrom('student_records')
        .select(['student_id as studentId'])
        .where('class_id', '=', classId)
        .where('student_id', '>', 2)
        .orderBy('student_id')
        .limit(3)
        .execute();
      expect(expected.length).toBe(3);
      expect(await studentsOfClass(session, { classId, after: 2 })).toEqual(expected);
    }
    expect(await studentsOfClass(session, { classId: -1, after: 0 })).toEqual([]);
  });

  test('a parameter the builder does not use as a value is refused, not written into the SQL', async () => {
    const misuse = compiledQuery((db, p: { column: string }) =>
      db.selectFrom('students').select(sql.ref(String(p.column)).as('x')),
    );
    await expect(misuse(store as Store, { column: 'id' })).rejects.toThrow('column not used as a value');
  });

  const noteTypeCount = compiledQuery((db) =>
    db.selectFrom('note_types').select((eb) => eb.fn.countAll<number>().as('count')),
  );

  test("a compiled read never sees another call's uncommitted writes", async () => {
    const session = store as Store;
    const [before] = await noteTypeCount(session, {});
    let inserted!: () => void;
    const insertion = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = inTransaction(session, async (open) => {
      await open.db.insertInto('note_types').values({ name_ar: 'مؤقت', name_en: 'Draft', is_positive: 1 }).execute();
      inserted();
      await gate;
      throw new Error('rolled back');
    });
    await insertion;
    const reading = noteTypeCount(session, {});
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await reading).toEqual([before]);
  });

  if (engine === 'postgres') {
    test('PostgreSQL runs a compiled read as a named prepared statement, one name for one text', async () => {
      const sent = await statementsSentDuring(async () => {
        await noteTypeCount(store as Store, {});
        await noteTypeCount(store as Store, {});
      });
      const names = sent.map((config) => (config as { name?: string }).name);
      expect(names).toEqual([expect.stringMatching(/^q[0-9a-f]{24}$/), names[0]]);
    });
  }

  if (engine === 'sqlite') {
    test("SQLite's LIMIT is written into the SQL, not bound", () => {
      const { sql: text, parameters } = (store as Store).db
        .selectFrom('students')
        .select('id')
        .where('id', '>', 5)
        .limit(1)
        .compile();
      expect([text.endsWith('limit 1'), parameters]).toEqual([true, [5]]);
    });
  }
});

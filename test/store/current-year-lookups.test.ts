import type { StudentInfo } from '../../src/contract/operation-types';
import { loadConfig } from '../../src/config/service-config';
import { teacherGroups } from '../../src/store/queries/classes';
import { studentInfoByStudentId, studentMarks, studentSubjects } from '../../src/store/queries/students';
import { openStore, type Store } from '../../src/store/open-store';
import { ReferenceData } from '../../src/store/reference-data';
import type { DirectReader, Session } from '../../src/store/session';
import { describeEachEngine } from '../support/engines';
import { openTestSchool } from '../support/stores';

/**
 * The lookups that answer for the current academic year (a student's information, subjects and
 * marks, a teacher's groups) find it in their own statement: one read a lookup (on SQLite one read
 * transaction, on PostgreSQL one round trip), and the year and the rows of an answer always come
 * from one state of the store, whatever another process commits meanwhile.
 */

const TODAY = '2026-11-22';

/** A store of its own on the same database, counting the statements it sends. */
async function countingStore(settings: Record<string, string>): Promise<{ store: Store; reads: () => number }> {
  const config = loadConfig(settings);
  let count = 0;
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDirectory: config.dataDirectory,
    queryTook: () => {
      count += 1;
    },
  });
  return { store, reads: () => count };
}

describeEachEngine('lookups for the current year', ({ freshStoreSettings }) => {
  let writer: Store | undefined;
  let reader: { store: Store; reads: () => number } | undefined;
  let student: { id: number; subjectId: number; teacherId: number; nameEn: string | null; year: string } | undefined;

  beforeAll(async () => {
    const settings = freshStoreSettings();
    writer = await openTestSchool(settings);
    reader = await countingStore(settings);
    const { db } = writer;
    const info = await studentInfoByStudentId(writer, 1, TODAY);
    const teaching = await db
      .selectFrom('teacher_assignments')
      .select(['subject_id', 'teacher_id'])
      .where('class_id', '=', info?.classId ?? -1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    student = {
      id: 1,
      subjectId: teaching.subject_id,
      teacherId: teaching.teacher_id,
      nameEn: info?.nameEn ?? null,
      year: info?.academicYear ?? '',
    };
  });
  afterAll(async () => {
    await reader?.store.close();
    await writer?.close();
  });

  test('each makes one read, the current year included', async () => {
    const { store, reads } = reader as { store: Store; reads: () => number };
    const { id, subjectId, teacherId } = student as NonNullable<typeof student>;
    const lookups: Array<() => Promise<unknown>> = [
      () => studentInfoByStudentId(store, id, TODAY),
      () => studentSubjects(store, id, TODAY),
      () => studentMarks(store, id, subjectId, TODAY),
      () => teacherGroups(store, teacherId, TODAY),
    ];
    const counts: number[] = [];
    for (const lookup of lookups) {
      await lookup();
      const before = reads();
      await lookup();
      counts.push(reads() - before);
    }
    expect(counts).toEqual([1, 1, 1, 1]);
    // Answers with data: the counts are of lookups that found their rows.
    expect((await studentSubjects(store, id, TODAY)).length).toBeGreaterThan(0);
    expect((await teacherGroups(store, teacherId, TODAY)).length).toBeGreaterThan(0);
  });

  test('an answer never holds the year of one state of the store and the rows of another', async () => {
    const { store } = reader as { store: Store };
    const { id, nameEn, year } = student as NonNullable<typeof student>;
    const { db } = writer as Store;
    // After each statement the reader sends, another connection may commit (as another process can
    // between two statements of a call): here, once, a new year made current together with the
    // student's enrolment in it and a new name.
    let afterRead: (() => Promise<void>) | undefined;
    const inner = store.direct as DirectReader;
    const direct: DirectReader = {
      all: async (sql, parameters) => {
        const rows = await inner.all(sql, parameters);
        const commit = afterRead;
        afterRead = undefined;
        await commit?.();
        return rows ?? [];
      },
    };
    // Without a change watch, as on SQLite and on PostgreSQL while its watch is down.
    const base = { db: store.db, engine: store.engine, direct };
    const session: Session = { ...base, reference: new ReferenceData(base, undefined) };
    const stateOf = (info: StudentInfo | undefined) => {
      const renamed = info?.nameEn === 'Renamed';
      const moved = info?.academicYear === 'Next year';
      if (renamed && moved) return 'after';
      if (!renamed && !moved && info?.nameEn === nameEn && info.academicYear === year) return 'before';
      return 'mixed';
    };

    expect(stateOf(await studentInfoByStudentId(session, id, TODAY))).toBe('before');
    afterRead = () =>
      db.transaction().execute(async (transaction) => {
        const next = await transaction
          .insertInto('academic_years')
          .values({ name: 'Next year', starts_on: '2026-11-01', ends_on: '2027-06-30' })
          .returning('id')
          .executeTakeFirstOrThrow();
        const record = await transaction
          .selectFrom('student_records')
          .select('class_id')
          .where('student_id', '=', id)
          .executeTakeFirstOrThrow();
        await transaction
          .insertInto('student_records')
          .values({
            student_id: id,
            class_id: record.class_id,
            academic_year_id: next.id,
            enrolled_on: '2026-11-01',
            status: 'active',
          })
          .execute();
        await transaction.updateTable('students').set({ name_en: 'Renamed' }).where('id', '=', id).execute();
      });
    expect(stateOf(await studentInfoByStudentId(session, id, TODAY))).toBe('before');
    expect(afterRead).toBeUndefined();
    expect(stateOf(await studentInfoByStudentId(session, id, TODAY))).toBe('after');
  });
});

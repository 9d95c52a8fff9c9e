import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * A new academic year, imported by another process with its enrolments, is answered by the very
 * next call, whole: the lookup finds the current year in the statement that reads the enrolment,
 * so it waits for no change notification and never pairs the new rows with the old year.
 */
describeEachEngine('a year made current by another process', ({ freshStoreSettings }) => {
  let school: Store | undefined;
  let service: RunningService | undefined;

  beforeAll(async () => {
    const settings = freshStoreSettings();
    school = await openTestSchool(settings);
    service = await startTestService({ ...settings, CONTRACT: 'typed', DEMO_DATA: 'off' }, { now: () => TEST_TODAY });
  });
  afterAll(async () => {
    await service?.close();
    await school?.close();
  });

  const studentInfo = async (studentId: number) => {
    const { url } = service as RunningService;
    const { status, body } = await callJson(url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', {
      StudentId: String(studentId),
    });
    expect(status).toBe(200);
    return body.d as { NameEn: string; AcademicYear: string; StudentRecId: number };
  };

  test('is answered by the next call with the enrolment and the name written with it', async () => {
    const { db } = school as Store;
    const record = await db
      .selectFrom('student_records')
      .select(['student_id', 'class_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = await studentInfo(record.student_id);
    const enrolment = await db.transaction().execute(async (transaction) => {
      const year = await transaction
        .insertInto('academic_years')
        .values({ name: 'Imported year', starts_on: '2026-11-01', ends_on: '2027-06-30' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await transaction
        .updateTable('students')
        .set({ name_en: 'Imported name' })
        .where('id', '=', record.student_id)
        .execute();
      return transaction
        .insertInto('student_records')
        .values({
          student_id: record.student_id,
          class_id: record.class_id,
          academic_year_id: year.id,
          enrolled_on: '2026-11-01',
          status: 'active',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    });
    const after = await studentInfo(record.student_id);
    expect(before.AcademicYear).not.toBe('Imported year');
    expect([after.NameEn, after.AcademicYear, after.StudentRecId]).toEqual([
      'Imported name',
      'Imported year',
      enrolment.id,
    ]);
  });
});

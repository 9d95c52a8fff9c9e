import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { TEST_OUTBOX_KEY } from '../support/callers';
import { callJson } from '../support/json-calls';
import { createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { describeOnPostgres } from '../support/tools';
import { statementsSentDuring } from '../support/pg-statements';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * On PostgreSQL every statement is a round trip over the network: no call may make more than two
 * on its own path. The service runs in this process, so the statements its pg clients send are
 * counted where pg sends them. The service's own background work (the delivery worker's polls,
 * the audit trail's batches, its presence row) may fall into a call's window, so each call is
 * made a few times and the fewest statements count.
 */

const MAX_ROUND_TRIPS = 2;
const ROUNDS = 4;
/**
 * The calls that write, and what they make today: a measured miss, documented in docs/benchmarks.md
 * (their statements run in a transaction, one round trip each; the rate limits take one statement
 * a step for all their buckets). They are held at these counts.
 */
const WRITES: Readonly<Record<string, number>> = {
  GenerateReport: 9,
  GetBookPdfByTerm: 9,
  PushNotificationToGateway: 10,
  AuthCode: 10,
  SendMarkNotes: 8,
};

describeOnPostgres()('round trips to PostgreSQL per call', () => {
  let postgres: TestPostgres | undefined;
  let school: Store | undefined;
  let service: RunningService | undefined;
  const calls: Array<[path: string, operation: string, parameters: Record<string, string>]> = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const settings = { DATABASE_URL: createDatabase(postgres.url, 'school_round_trips') };
    school = await openTestSchool(settings);
    const { db } = school;
    const record = await db
      .selectFrom('student_records')
      .select(['id', 'student_id', 'class_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const teaching = await db
      .selectFrom('teacher_assignments')
      .select(['teacher_id', 'class_id', 'subject_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const exam = await db.selectFrom('exams').select('id').orderBy('id').executeTakeFirstOrThrow();
    const term = await db.selectFrom('terms').select('id').orderBy('starts_on').executeTakeFirstOrThrow();
    const device = await db
      .selectFrom('devices')
      .select(['device_id', 'application_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const phone = await db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow();
    const assessment = await db
      .selectFrom('assessments')
      .select(['id', 'class_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const absenceType = await db.selectFrom('absence_types').select('id').orderBy('id').executeTakeFirstOrThrow();
    service = await startTestService(
      { ...settings, DEMO_DATA: 'off', CONTRACT: 'typed', OUTBOX_KEY: TEST_OUTBOX_KEY },
      { now: () => TEST_TODAY },
    );
    const school_ = `${service.url}/`;
    const student = String(record.student_id);
    calls.push(
      ['/GetStudentsNote.asmx', 'HelloWorld', {}],
      ['/GetStudentsInformation.asmx', 'GetStudentInfoByRecId', { StudentRecId: String(record.id) }],
      ['/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: student }],
      ['/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', { STDid: student }],
      [
        '/GetTeacherSubjects.asmx',
        'GetTeacherSubjectsByID',
        { Tid: String(teaching.teacher_id), TClassid: String(teaching.class_id) },
      ],
      ['/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', { StudnetID: student, SubjectID: String(teaching.subject_id) }],
      ['/GetStudentsAudit.asmx', 'GetAllAuditsByClassId', { classId: String(record.class_id) }],
      ['/GetGeneralNoteByClasssID.asmx', 'GetStudentsGnote', { ClassID: String(record.class_id) }],
      ['/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', { Tid: String(teaching.teacher_id) }],
      ['/GetStudnetNote2.asmx', 'GetStudentNoteByID', { STDid: student }],
      ['/Scheduals.asmx', 'GetExamTableByExamId', { ExamId: String(exam.id) }],
      ['/GetNoteType.asmx', 'GetStudentsNoteType', {}],
      ['/GenerateStudentReport.asmx', 'GenerateReport', { studentId: student, studentClass: String(record.class_id) }],
      [
        '/BookPdf.asmx',
        'GetBookPdfByTerm',
        { termId: String(term.id), srid: String(record.id), classId: String(record.class_id) },
      ],
      ['/NotificationNotes.asmx', 'GetNameAbsenceType', { id: String(absenceType.id), baseUrlSchool: school_ }],
      [
        '/PushNotificationMobile.asmx',
        'PushNotificationToGateway',
        {
          applicationID: device.application_id,
          senderId: 'office',
          deviceId: device.device_id,
          notes: 'hi',
          notes_type: 'notice',
        },
      ],
      ['/AuthCodeSending.asmx', 'AuthCode', { code: '482913', phone: phone.phone }],
      [
        '/NotificationNotes.asmx',
        'SendMarkNotes',
        { id: String(assessment.id), id_class: String(assessment.class_id), baseUrlSchool: school_ },
      ],
    );
  });
  afterAll(async () => {
    await service?.close();
    await school?.close();
    postgres?.stop();
  });

  test('no query call makes more than two; the writing calls no more than they did', async () => {
    const url = (service as RunningService).url;
    const fewest: Record<string, number> = {};
    for (const [path, operation, parameters] of calls) {
      for (let round = 0; round < ROUNDS; round += 1) {
        // The numbers' limits would refuse a fifth code to one number within the hour: each round
        // sends to another, which (registered or not) costs the same work by design.
        const sent =
          operation === 'AuthCode' && round > 0 ? { ...parameters, phone: `+1555010012${round}` } : parameters;
        let answer: Awaited<ReturnType<typeof callJson>> | undefined;
        const statements = (
          await statementsSentDuring(async () => {
            answer = await callJson(url, path, operation, sent);
          })
        ).length;
        expect([operation, answer?.status]).toEqual([operation, 200]);
        fewest[operation] = Math.min(fewest[operation] ?? Number.POSITIVE_INFINITY, statements);
      }
    }
    const over = Object.entries(fewest).filter(([operation, count]) => count > (WRITES[operation] ?? MAX_ROUND_TRIPS));
    expect(over).toEqual([]);
  });
});

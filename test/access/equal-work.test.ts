import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import type { Scope } from '../../src/access/scope';
import { Visibility } from '../../src/access/visibility';
import { readNotificationConfig } from '../../src/config/notification-settings';
import { payloadSealer } from '../../src/lib/payload-sealer';
import type { OperationContext } from '../../src/operations/operation';
import { getAllAuditsByClassId, getStudentsGnote } from '../../src/operations/classes';
import { pushNotificationToGateway, sendMarkNotes } from '../../src/operations/notifications';
import { generateReport, getBookPdfByTerm } from '../../src/operations/reports';
import { getExamTableByExamId } from '../../src/operations/school-lists';
import {
  getStudentInfoById,
  getStudentInfoByRecId,
  getStudentNoteById,
  getStudentSubjectsById,
  getStudentsMarks2,
} from '../../src/operations/students';
import { getTeacherGroupsById, getTeacherSubjectsById } from '../../src/operations/teachers';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { statementsSentDuring } from '../support/pg-statements';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * Every scoped operation does the same work for an id out of the caller's scope as for one the
 * school does not have: the same statements, in the same order, and the same answer. The time of
 * an answer then cannot tell the two apart (`npm run bench:timing` measures that it does not);
 * this test holds the work itself, which a loaded machine cannot blur.
 */
const UNKNOWN = 999_999;
const BASE_URL = 'http://127.0.0.1:8080';

/** The SQL of every statement the embedded store runs while `work` does. */
async function sqliteStatementsDuring(work: () => Promise<unknown>): Promise<{ sql: string[]; result: unknown }> {
  const probe = new BetterSqlite3(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const sql: string[] = [];
  const originals = new Map<string, unknown>();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = prototype[method] as (this: { source: string }, ...args: unknown[]) => unknown;
    originals.set(method, original);
    prototype[method] = function (this: { source: string }, ...args: unknown[]) {
      sql.push(this.source);
      return original.apply(this, args);
    };
  }
  try {
    return { sql, result: await work() };
  } finally {
    for (const [method, original] of originals) prototype[method] = original;
  }
}

/** The SQL of every statement sent to PostgreSQL while `work` runs, without its values. */
async function postgresStatementsDuring(work: () => Promise<unknown>): Promise<{ sql: string[]; result: unknown }> {
  let result: unknown;
  const sent = await statementsSentDuring(async () => {
    result = await work();
  });
  const sql = sent.map((query) => (typeof query === 'string' ? query : String((query as { text?: string }).text)));
  return { sql, result };
}

/**
 * The statements but those of the store's copy of its reference data (years, terms, note and
 * absence types) and of its change watch (PostgreSQL's LISTEN): the copy is reread whenever the
 * watch connects or announces a change, at a moment of its own, whatever the call asks for.
 */
function withoutReferenceCopy(sql: readonly string[]): string[] {
  const copy =
    /from "(reference_versions|academic_years|terms|note_types|absence_types)"( where "id" = \S+)?( order by [^)]*)?$/;
  return sql.filter((text) => !copy.test(text) && !text.startsWith('LISTEN '));
}

describeEachEngine('equal work for ids out of scope and unknown ids', ({ engine, freshStoreSettings }) => {
  const statementsDuring = engine === 'sqlite' ? sqliteStatementsDuring : postgresStatementsDuring;
  let store: Store;
  let ids: Awaited<ReturnType<typeof pickIds>>;
  const handlers: Record<string, { handle(parameters: never, context: OperationContext): unknown }> = {
    GetStudentInfoById: getStudentInfoById,
    GetStudentInfoByRecId: getStudentInfoByRecId,
    GetStudentSubjectsByID: getStudentSubjectsById,
    GetStudentsMarks2: getStudentsMarks2,
    GetStudentNoteByID: getStudentNoteById,
    GetAllAuditsByClassId: getAllAuditsByClassId,
    GetStudentsGnote: getStudentsGnote,
    GetExamTableByExamId: getExamTableByExamId,
    GetTeacherSubjectsByID: getTeacherSubjectsById,
    GetTeacherGrpupsByID: getTeacherGroupsById,
    GenerateReport: generateReport,
    GetBookPdfByTerm: getBookPdfByTerm,
    SendMarkNotes: sendMarkNotes,
    PushNotificationToGateway: pushNotificationToGateway,
  };
  const notifications = readNotificationConfig({
    PUSH_PER_SENDER_PER_MINUTE: '1000000',
    PUSH_PER_CALLER_PER_MINUTE: '1000000',
    PUSH_PER_DEVICE_PER_MINUTE: '1000000',
    MARK_NOTES_PER_CALLER_PER_MINUTE: '1000000',
  });
  const sealer = payloadSealer(randomBytes(32));

  async function pickIds(db: Store['db']) {
    const family = await db
      .selectFrom('devices')
      .innerJoin('student_guardians', 'student_guardians.guardian_id', 'devices.guardian_id')
      .innerJoin('student_records', 'student_records.student_id', 'student_guardians.student_id')
      .select(['devices.guardian_id as guardian', 'student_guardians.student_id as child', 'class_id as childClass'])
      .orderBy('devices.id')
      .executeTakeFirstOrThrow();
    const teacher = await db
      .selectFrom('teacher_assignments')
      .select(['teacher_id', 'subject_id'])
      .where('class_id', '=', family.childClass)
      .orderBy('teacher_id')
      .executeTakeFirstOrThrow();
    // A family no class of that teacher has, so that it is out of every scope picked here.
    const other = await db
      .selectFrom('student_records')
      .innerJoin('student_guardians', 'student_guardians.student_id', 'student_records.student_id')
      .innerJoin('devices', 'devices.guardian_id', 'student_guardians.guardian_id')
      .select([
        'student_records.id as record',
        'student_records.student_id as student',
        'student_records.class_id as classId',
        'devices.application_id as applicationId',
        'devices.device_id as deviceId',
      ])
      .where(
        'student_records.class_id',
        'not in',
        db.selectFrom('teacher_assignments').select('class_id').where('teacher_id', '=', teacher.teacher_id),
      )
      .where('student_records.class_id', '!=', family.childClass)
      .orderBy('student_records.id')
      .executeTakeFirstOrThrow();
    const exam = await db
      .selectFrom('exam_slots')
      .select('exam_id')
      .where('class_id', '=', other.classId)
      .executeTakeFirstOrThrow();
    const otherTeacher = await db
      .selectFrom('teachers')
      .select('id')
      .where('id', '!=', teacher.teacher_id)
      .executeTakeFirstOrThrow();
    const assessment = await db.selectFrom('assessments').select('id').orderBy('id').executeTakeFirstOrThrow();
    const term = await db.selectFrom('terms').select('id').orderBy('id').executeTakeFirstOrThrow();
    return {
      ...family,
      teacher: teacher.teacher_id,
      subject: teacher.subject_id,
      other,
      exam: exam.exam_id,
      otherTeacher: otherTeacher.id,
      assessment: assessment.id,
      term: term.id,
    };
  }

  beforeAll(async () => {
    store = await openTestSchool(freshStoreSettings());
    ids = await pickIds(store.db);
  });
  afterAll(async () => {
    await store.close();
  });

  function contextFor(scope: Scope): OperationContext {
    return {
      store,
      notificationSettings: notifications,
      sealer,
      outboxChanged: () => undefined,
      endpointPathOf: () => '/NotificationNotes.asmx',
      call: {
        callerName: 'probe',
        scope,
        address: '10.0.0.1',
        requestBaseUrl: BASE_URL,
        federationCredential: undefined,
      },
      visibility: new Visibility(store, scope),
      touched: () => undefined,
      now: TEST_TODAY,
      today: TEST_TODAY.toISOString().slice(0, 10),
    };
  }

  /** Each scoped operation, its parameters for an id: the other family's record, or an unknown one. */
  const operations: ReadonlyArray<readonly [string, (outside: boolean) => Record<string, unknown>]> = [
    ['GetStudentInfoById', (outside) => ({ StudentId: String(outside ? ids.other.student : UNKNOWN) })],
    ['GetStudentInfoByRecId', (outside) => ({ StudentRecId: String(outside ? ids.other.record : UNKNOWN) })],
    ['GetStudentSubjectsByID', (outside) => ({ STDid: String(outside ? ids.other.student : UNKNOWN) })],
    [
      'GetStudentsMarks2',
      (outside) => ({ StudnetID: String(outside ? ids.other.student : UNKNOWN), SubjectID: String(ids.subject) }),
    ],
    ['GetStudentNoteByID', (outside) => ({ STDid: String(outside ? ids.other.student : UNKNOWN) })],
    ['GetAllAuditsByClassId', (outside) => ({ classId: String(outside ? ids.other.classId : UNKNOWN) })],
    ['GetStudentsGnote', (outside) => ({ ClassID: String(outside ? ids.other.classId : UNKNOWN) })],
    ['GetExamTableByExamId', (outside) => ({ ExamId: String(outside ? ids.exam : UNKNOWN) })],
    [
      'GetTeacherSubjectsByID',
      (outside) => ({ Tid: String(ids.teacher), TClassid: String(outside ? ids.other.classId : UNKNOWN) }),
    ],
    ['GetTeacherGrpupsByID', (outside) => ({ Tid: String(outside ? ids.otherTeacher : UNKNOWN) })],
    [
      'GenerateReport',
      (outside) => ({ studentId: outside ? ids.other.student : UNKNOWN, studentClass: String(ids.other.classId) }),
    ],
    [
      'GetBookPdfByTerm',
      (outside) => ({
        termId: String(ids.term),
        srid: String(outside ? ids.other.record : UNKNOWN),
        classId: String(ids.other.classId),
      }),
    ],
    [
      'SendMarkNotes',
      (outside) => ({
        id: String(ids.assessment),
        id_class: String(outside ? ids.other.classId : UNKNOWN),
        baseUrlSchool: BASE_URL,
      }),
    ],
    [
      'PushNotificationToGateway',
      (outside) => ({
        applicationID: ids.other.applicationId,
        senderId: 'probe',
        deviceId: outside ? ids.other.deviceId : 'no-such-device',
        notes: 'The trip leaves at 8:00.',
        notes_type: 'general',
      }),
    ],
  ];

  const scopes = (): Array<[string, Scope]> => [
    ['guardian', { kind: 'guardian', id: ids.guardian }],
    ['teacher', { kind: 'teacher', id: ids.teacher }],
    ['student', { kind: 'student', id: ids.child }],
  ];

  test('the recorder sees every statement the store runs', async () => {
    const { sql } = await statementsDuring(() => store.db.selectFrom('classes').select('id').execute());
    expect(sql.filter((text) => text.includes('classes'))).toEqual(['select "id" from "classes"']);
  });

  test.each(operations)('%s runs the same statements and answers the same for either id', async (name, parameters) => {
    const handler = handlers[name] as unknown as { handle(parameters: unknown, context: OperationContext): unknown };
    for (const [who, scope] of scopes()) {
      const run = (outside: boolean) =>
        statementsDuring(async () => handler.handle(parameters(outside), contextFor(scope)));
      // Once each first, so that the statements compared are all prepared alike.
      await run(true);
      await run(false);
      const outside = await run(true);
      const unknown = await run(false);
      // A push's answer is a new delivery reference each time: its shape is compared.
      const shape = (result: unknown) => (name === 'PushNotificationToGateway' ? typeof result : result);
      expect([who, shape(outside.result)]).toEqual([who, shape(unknown.result)]);
      expect([who, withoutReferenceCopy(outside.sql)]).toEqual([who, withoutReferenceCopy(unknown.sql)]);
    }
  });
});

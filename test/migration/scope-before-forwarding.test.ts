import type { RunningService } from '../../src/service';
import { addTestCallers, BINDINGS, basic, REMOTE_TEST_SETTINGS, remoteCall } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { eventually } from '../support/eventually';
import { type LegacyStandIn, startLegacyStandIn, stringDocuments } from '../support/legacy-asmx';
import { type ScopedCallerKind, type ScopedView, scopedViews } from '../support/scoped-school';
import { statementsSentDuring } from '../support/pg-statements';
import { startTestService } from '../support/service';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * A scoped caller (guardian, teacher, student) on every binding and every route that asks the
 * legacy service (legacy, shadow, canary): a call naming a record out of its scope is answered
 * here, byte for byte as the local route answers it (an unknown id), and the legacy service,
 * which answers any id, never receives it. A call in scope is still forwarded.
 */
const KINDS: readonly ScopedCallerKind[] = ['guardian', 'teacher', 'student'];
const LEAK = 'LEGACY-RECORD';
const INFO = '/GetStudentsInformation.asmx';
/** This school's address, as SendMarkNotes names it. */
const SCHOOL = 'http://school.test/';

/** The calls naming a record out of the view's scope: a student, a student record, a class. */
const UNSEEN_CALLS: ReadonlyArray<[string, string, (view: ScopedView) => Record<string, string>]> = [
  ['GetStudentInfoById', INFO, (view) => ({ StudentId: String(view.unseenStudent) })],
  ['GetStudentInfoByRecId', INFO, (view) => ({ StudentRecId: String(view.unseenRecord) })],
  ['GetStudentNoteByID', '/GetStudnetNote2.asmx', (view) => ({ STDid: String(view.unseenStudent) })],
  [
    'GetStudentsMarks2',
    '/GetStudnetsMarks2.asmx',
    (view) => ({ StudnetID: String(view.unseenStudent), SubjectID: '1' }),
  ],
  ['GetAllAuditsByClassId', '/GetStudentsAudit.asmx', (view) => ({ classId: String(view.unseenClass) })],
  ['GetStudentsGnote', '/GetGeneralNoteByClasssID.asmx', (view) => ({ ClassID: String(view.unseenClass) })],
];

/** Records out of the guardian's reach that the other operations name, read from the school. */
interface OtherRecords {
  readonly exam: number;
  readonly teacher: number;
  readonly assessment: number;
  readonly device: { readonly application: string; readonly id: string };
}

/** Every other operation that names a record, each naming one out of the guardian's scope. */
const OTHER_CALLS: ReadonlyArray<[string, string, (view: ScopedView, other: OtherRecords) => Record<string, string>]> =
  [
    ['GetExamTableByExamId', '/Scheduals.asmx', (_view, other) => ({ ExamId: String(other.exam) })],
    ['GetTeacherGrpupsByID', '/GetTeacherGroups.asmx', (_view, other) => ({ Tid: String(other.teacher) })],
    [
      'GetTeacherSubjectsByID',
      '/GetTeacherSubjects.asmx',
      (view, other) => ({ Tid: String(other.teacher), TClassid: String(view.unseenClass) }),
    ],
    ['GetStudentSubjectsByID', '/GetStudentsSubjects.asmx', (view) => ({ STDid: String(view.unseenStudent) })],
    [
      'GenerateReport',
      '/GenerateStudentReport.asmx',
      (view) => ({ studentId: String(view.unseenStudent), studentClass: String(view.unseenClass) }),
    ],
    [
      'GetBookPdfByTerm',
      '/BookPdf.asmx',
      (view) => ({ termId: '1', srid: String(view.unseenRecord), classId: String(view.unseenClass) }),
    ],
    [
      'SendMarkNotes',
      '/NotificationNotes.asmx',
      (view, other) => ({ id: String(other.assessment), id_class: String(view.unseenClass), baseUrlSchool: SCHOOL }),
    ],
    [
      'PushNotificationToGateway',
      '/PushNotificationMobile.asmx',
      (_view, other) => ({
        applicationID: other.device.application,
        senderId: 'portal',
        deviceId: other.device.id,
        notes: 'hello',
        notes_type: 'notice',
      }),
    ],
  ];

/**
 * The statements of the call's records: those of the caller registry's refresh, the reference
 * data's copy and the change watch run at moments of their own, whatever the call asks for.
 */
function recordStatements(sent: readonly unknown[]): string[] {
  const own = /"callers"|reference_versions|academic_years|"terms"|note_types|absence_types|audit|shadow_/;
  return sent
    .map((query) => (typeof query === 'string' ? query : String((query as { text?: string }).text)))
    .filter((text) => !own.test(text) && !text.startsWith('LISTEN ') && !/^(BEGIN|COMMIT|ROLLBACK)/i.test(text));
}

describeEachEngine('scope before forwarding', ({ engine, freshStoreSettings }) => {
  let settings: Record<string, string>;
  let views: Record<ScopedCallerKind, ScopedView>;
  let other: OtherRecords;
  let secrets: Record<string, string>;
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;
  /** Each out-of-scope call's answer on the local route, by caller, binding and operation. */
  const localAnswers = new Map<string, { status: number; text: string }>();

  const start = async (route: string) => {
    service = await startTestService(
      {
        ...REMOTE_TEST_SETTINGS,
        ...settings,
        DEMO_DATA: 'off',
        CONTRACT: 'typed',
        LEGACY_URL: legacy.url,
        ROUTES: `default=${route}`,
        SHADOW_FLUSH_MS: '20',
        SHADOW_NOISE_SAMPLE: '0',
        SCHOOL_BASE_URL: SCHOOL,
      },
      { now: () => TEST_TODAY },
    );
    return service.url;
  };
  const ask = (
    url: string,
    kind: ScopedCallerKind,
    path: string,
    operation: string,
    parameters: object,
    binding = BINDINGS[0],
  ) =>
    remoteCall(url, path, operation, parameters as Record<string, string>, binding, {
      headers: { Authorization: basic(kind, secrets[kind]) },
    });
  /** Every out-of-scope call of every caller on every binding, answered by the service at `url`. */
  const unseenAnswers = async (url: string) => {
    const answers = new Map<string, { status: number; text: string }>();
    for (const kind of KINDS)
      for (const binding of BINDINGS)
        for (const [operation, path, parameters] of UNSEEN_CALLS) {
          const { status, text } = await ask(url, kind, path, operation, parameters(views[kind]), binding);
          answers.set(`${kind} ${binding} ${operation}`, { status, text });
        }
    return answers;
  };

  /** The guardian's calls of the other operations, over JSON. */
  const otherAnswers = async (url: string) => {
    const answers = new Map<string, { status: number; text: string }>();
    for (const [operation, path, parameters] of OTHER_CALLS) {
      const { status, text } = await ask(url, 'guardian', path, operation, parameters(views.guardian, other), 'json');
      answers.set(`guardian json ${operation}`, { status, text });
    }
    return answers;
  };

  beforeAll(async () => {
    settings = freshStoreSettings();
    const school = await openTestSchool(settings);
    try {
      views = await scopedViews(school.db);
      const unseenClass = views.guardian.unseenClass;
      const guardianId = Number(views.guardian.scope.split(':')[1]);
      const [exam, teacher, assessment, device] = await Promise.all([
        school.db
          .selectFrom('exam_slots')
          .select('exam_id')
          .where('class_id', '=', unseenClass)
          .executeTakeFirstOrThrow(),
        school.db.selectFrom('teachers').select('id').orderBy('id').executeTakeFirstOrThrow(),
        school.db.selectFrom('assessments').select('id').where('class_id', '=', unseenClass).executeTakeFirstOrThrow(),
        school.db
          .selectFrom('devices')
          .select(['application_id', 'device_id'])
          .where('guardian_id', '!=', guardianId)
          .where('enabled', '=', 1)
          .executeTakeFirstOrThrow(),
      ]);
      other = {
        exam: exam.exam_id,
        teacher: teacher.id,
        assessment: assessment.id,
        device: { application: device.application_id, id: device.device_id },
      };
      secrets = await addTestCallers(
        school,
        KINDS.map((kind) => ({ name: kind, secret: true, scope: views[kind].scope, operations: ['all'] })),
      );
    } finally {
      await school.close();
    }
    legacy = await startLegacyStandIn();
    // The legacy service answers any id with a record, as one that knows nothing of this service's callers does.
    for (const [operation] of UNSEEN_CALLS) {
      for (const [key, document] of stringDocuments(operation, `<Name>${LEAK}</Name>`))
        legacy.documents.set(key, document);
    }
    const url = await start('local');
    for (const [key, answer] of await unseenAnswers(url)) localAnswers.set(key, answer);
    for (const [key, answer] of await otherAnswers(url)) localAnswers.set(key, answer);
    // On the local route an out-of-scope record answers as an unknown one does.
    const unknown = await ask(url, 'guardian', INFO, 'GetStudentInfoById', { StudentId: '999999' });
    expect(localAnswers.get('guardian soap11 GetStudentInfoById')).toEqual({ status: 200, text: unknown.text });
    await service?.close();
    service = undefined;
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });
  afterAll(() => legacy.close());

  // The statements are counted where the pg client sends them; SQLite's are the same queries, so
  // the test is PostgreSQL's alone (registered there only, rather than shown skipped on SQLite).
  const onPostgres = engine === 'postgres' ? test : () => undefined;
  onPostgres('legacy: a record out of scope costs what an unknown one does', async () => {
    const url = await start('legacy');
    legacy.requests.splice(0);
    const view = views.guardian;
    const cases: Array<[string, string, (id: string) => Record<string, string>, number]> = [
      ['GetStudentInfoById', INFO, (id) => ({ StudentId: id }), view.unseenStudent],
      ['GetStudentInfoByRecId', INFO, (id) => ({ StudentRecId: id }), view.unseenRecord],
      ['GetAllAuditsByClassId', '/GetStudentsAudit.asmx', (id) => ({ classId: id }), view.unseenClass],
      ['GetExamTableByExamId', '/Scheduals.asmx', (id) => ({ ExamId: id }), other.exam],
    ];
    for (const [operation, path, parameters, unseen] of cases) {
      const statements = async (id: string) =>
        recordStatements(await statementsSentDuring(() => ask(url, 'guardian', path, operation, parameters(id))));
      await statements('999999');
      const unknown = await statements('999999');
      expect(unknown.length).toBeGreaterThan(0);
      expect([operation, await statements(String(unseen))]).toEqual([operation, unknown]);
    }
    expect(legacy.requests).toHaveLength(0);
  });

  test('legacy: every other operation naming a record out of scope is answered here, never forwarded', async () => {
    const url = await start('legacy');
    legacy.requests.splice(0);
    const answers = await otherAnswers(url);
    for (const [key, answer] of answers) {
      // A push answers with a delivery reference of its own each time: its status and shape are compared.
      const expected = localAnswers.get(key);
      expect([key, answer.status]).toEqual([key, 200]);
      if (key.endsWith('PushNotificationToGateway')) {
        expect([key, answer.status, answer.text.length]).toEqual([key, expected?.status, expected?.text.length]);
      } else expect([key, answer]).toEqual([key, expected]);
    }
    await ask(url, 'guardian', INFO, 'GetStudentInfoById', { StudentId: String(views.guardian.seenStudent) });
    expect(legacy.requests.map((request) => request.operation)).toEqual(['GetStudentInfoById']);
  });

  test.each(['legacy', 'shadow', 'canary'])(
    '%s: out of scope answered here as on the local route, never forwarded; in scope forwarded',
    async (route) => {
      const url = await start(route);
      legacy.requests.splice(0);
      const answers = await unseenAnswers(url);
      expect(answers.size).toBe(KINDS.length * BINDINGS.length * UNSEEN_CALLS.length);
      for (const [key, answer] of answers) expect([key, answer]).toEqual([key, localAnswers.get(key)]);
      for (const [, answer] of answers) expect(answer.text).not.toContain(LEAK);
      // A call in scope is the signal: once the legacy service has it, any earlier call sent would be there too.
      const seen = views.guardian.seenStudent;
      const inScope = await ask(url, 'guardian', INFO, 'GetStudentInfoById', { StudentId: String(seen) });
      expect(inScope.text.includes(LEAK)).toBe(route !== 'canary');
      await eventually(
        async () => legacy.requests.length,
        (count) => count > 0,
      );
      expect(legacy.requests.map((request) => [request.operation, request.body.includes(`>${seen}<`)])).toEqual([
        ['GetStudentInfoById', true],
      ]);
    },
  );
});

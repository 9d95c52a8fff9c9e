import type { Kysely } from 'kysely';
import type { RunningService } from '../../src/service';
import type { Database } from '../../src/store/schema';
import {
  addTestCaller,
  BINDINGS,
  type Binding,
  basic,
  type RemoteTestSchool,
  remoteCall,
  startRemoteTestSchool,
} from '../support/callers';
import { TEST_TODAY } from '../support/stores';

/**
 * Scopes on the demo school, through every binding of the typed profile: a guardian sees their
 * child and the child's class, a teacher their classes and subjects, a student themself; any other
 * record answers exactly as an unknown id does, byte for byte, so that scope cannot be probed.
 */
const UNKNOWN = '999999';

interface School {
  guardian: number;
  child: number;
  childClass: number;
  otherStudent: number;
  otherClass: number;
  childExam: number;
  otherExam: number;
  teacher: number;
  taughtClass: number;
  taughtSubject: number;
  taughtStudent: number;
  untaughtStudent: number;
  untaughtSubject: number;
  otherTeacher: number;
}

async function pickSchool(db: Kysely<Database>): Promise<School> {
  const link = await db
    .selectFrom('student_guardians as link')
    .innerJoin('student_records as record', 'record.student_id', 'link.student_id')
    .select(['link.guardian_id as guardian', 'link.student_id as child', 'record.class_id as childClass'])
    .orderBy('link.guardian_id')
    .executeTakeFirstOrThrow();
  const children = (
    await db.selectFrom('student_guardians').select('student_id').where('guardian_id', '=', link.guardian).execute()
  ).map((row) => row.student_id);
  const childClasses = (
    await db.selectFrom('student_records').select('class_id').where('student_id', 'in', children).execute()
  ).map((row) => row.class_id);
  const other = await db
    .selectFrom('student_records')
    .select(['student_id', 'class_id'])
    .where('student_id', 'not in', children)
    .where('class_id', 'not in', childClasses)
    .orderBy('student_id')
    .executeTakeFirstOrThrow();
  const examOf = async (classId: number) =>
    (await db.selectFrom('exam_slots').select('exam_id').where('class_id', '=', classId).executeTakeFirstOrThrow())
      .exam_id;
  const assignment = await db
    .selectFrom('teacher_assignments')
    .select(['teacher_id', 'class_id', 'subject_id'])
    .where('class_id', '=', link.childClass)
    .orderBy('teacher_id')
    .executeTakeFirstOrThrow();
  const taughtSubjects = (
    await db
      .selectFrom('teacher_assignments')
      .select('subject_id')
      .where('teacher_id', '=', assignment.teacher_id)
      .where('class_id', '=', link.childClass)
      .execute()
  ).map((row) => row.subject_id);
  const untaught = await db
    .selectFrom('teacher_assignments')
    .select(['subject_id', 'teacher_id'])
    .where('class_id', '=', link.childClass)
    .where('subject_id', 'not in', taughtSubjects)
    .orderBy('subject_id')
    .executeTakeFirstOrThrow();
  const taughtClasses = (
    await db
      .selectFrom('teacher_assignments')
      .select('class_id')
      .where('teacher_id', '=', assignment.teacher_id)
      .execute()
  ).map((row) => row.class_id);
  const untaughtStudent = await db
    .selectFrom('students')
    .select('id')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('student_records as record')
            .select('record.id')
            .whereRef('record.student_id', '=', 'students.id')
            .where('record.class_id', 'in', taughtClasses),
        ),
      ),
    )
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return {
    guardian: link.guardian,
    child: link.child,
    childClass: link.childClass,
    otherStudent: other.student_id,
    otherClass: other.class_id,
    childExam: await examOf(link.childClass),
    otherExam: await examOf(other.class_id),
    teacher: assignment.teacher_id,
    taughtClass: link.childClass,
    taughtSubject: assignment.subject_id,
    taughtStudent: link.child,
    untaughtStudent: untaughtStudent.id,
    untaughtSubject: untaught.subject_id,
    otherTeacher: untaught.teacher_id,
  };
}

describe('scopes on data', () => {
  let running: RemoteTestSchool;
  let service: RunningService;
  let school: School;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    running = await startRemoteTestSchool({ CONTRACT: 'typed' }, { now: () => TEST_TODAY });
    service = running.service;
    school = await pickSchool(service.store.db);
    for (const [name, scope] of [
      ['parent', `guardian:${school.guardian}`],
      ['teacher', `teacher:${school.teacher}`],
      ['pupil', `student:${school.child}`],
      ['office', 'school'],
    ]) {
      secrets.set(
        name,
        (await addTestCaller(service.store, { name, secret: true, scope, operations: ['all'] })) as string,
      );
    }
    await service.readCallers();
  });
  afterAll(() => running.close());

  const call = (
    caller: string,
    path: string,
    operation: string,
    parameters: Record<string, string>,
    binding: Binding,
  ) =>
    remoteCall(service.url, path, operation, parameters, binding, {
      headers: { Authorization: basic(caller, secrets.get(caller) as string) },
    });

  /** The answer to `known` has content; the answer to `unseen` is the answer to an unknown id, status and bytes. */
  async function expectScoped(
    caller: string,
    path: string,
    operation: string,
    parameters: (id: string) => Record<string, string>,
    known: number,
    unseen: number,
  ): Promise<void> {
    for (const binding of BINDINGS) {
      const seen = await call(caller, path, operation, parameters(String(known)), binding);
      const hidden = await call(caller, path, operation, parameters(String(unseen)), binding);
      const unknown = await call(caller, path, operation, parameters(UNKNOWN), binding);
      expect([binding, seen.status, hidden.status]).toEqual([binding, 200, 200]);
      expect([binding, seen.text === unknown.text]).toEqual([binding, false]);
      expect([binding, hidden.text]).toEqual([binding, unknown.text]);
    }
  }

  const INFO = '/GetStudentsInformation.asmx';

  test('a guardian sees their child, and another child answers as an unknown id', async () => {
    await expectScoped(
      'parent',
      INFO,
      'GetStudentInfoById',
      (id) => ({ StudentId: id }),
      school.child,
      school.otherStudent,
    );
    await expectScoped(
      'parent',
      '/GetStudnetNote2.asmx',
      'GetStudentNoteByID',
      (id) => ({ STDid: id }),
      school.child,
      school.otherStudent,
    );
    await expectScoped(
      'parent',
      '/GetStudentsSubjects.asmx',
      'GetStudentSubjectsByID',
      (id) => ({ STDid: id }),
      school.child,
      school.otherStudent,
    );
  });

  test("a guardian sees the child's class: its general notes and exam timetable, not another class's", async () => {
    await expectScoped(
      'parent',
      '/GetGeneralNoteByClasssID.asmx',
      'GetStudentsGnote',
      (id) => ({ ClassID: id }),
      school.childClass,
      school.otherClass,
    );
    await expectScoped(
      'parent',
      '/Scheduals.asmx',
      'GetExamTableByExamId',
      (id) => ({ ExamId: id }),
      school.childExam,
      school.otherExam,
    );
  });

  test("a guardian sees only their own children's entries of the class's attendance", async () => {
    const answer = await call(
      'parent',
      '/GetStudentsAudit.asmx',
      'GetAllAuditsByClassId',
      { classId: String(school.childClass) },
      'json',
    );
    const entries = (JSON.parse(answer.text) as { d: Array<{ StudentId: number }> }).d;
    const all = await call(
      'office',
      '/GetStudentsAudit.asmx',
      'GetAllAuditsByClassId',
      { classId: String(school.childClass) },
      'json',
    );
    const allEntries = (JSON.parse(all.text) as { d: Array<{ StudentId: number }> }).d;
    expect(allEntries.some((entry) => entry.StudentId !== school.child)).toBe(true);
    expect(new Set(entries.map((entry) => entry.StudentId))).toEqual(
      new Set(allEntries.map((entry) => entry.StudentId).filter((id) => id === school.child)),
    );
  });

  test('phone numbers and birth dates go to the school only', async () => {
    const asParent = JSON.parse(
      (await call('parent', INFO, 'GetStudentInfoById', { StudentId: String(school.child) }, 'json')).text,
    );
    const asOffice = JSON.parse(
      (await call('office', INFO, 'GetStudentInfoById', { StudentId: String(school.child) }, 'json')).text,
    );
    expect(asOffice.d.BirthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect([asParent.d.BirthDate, asParent.d.Phone]).toEqual([null, null]);
    expect(asParent.d.NameAr).toBe(asOffice.d.NameAr);
    const soap = await call('parent', INFO, 'GetStudentInfoById', { StudentId: String(school.child) }, 'soap11');
    expect(soap.text).toContain('<BirthDate xsi:nil="true" />');
    expect(soap.text).not.toContain('<Phone>');
  });

  test('a teacher sees the students of their classes and the marks of their own subjects', async () => {
    await expectScoped(
      'teacher',
      INFO,
      'GetStudentInfoById',
      (id) => ({ StudentId: id }),
      school.taughtStudent,
      school.untaughtStudent,
    );
    await expectScoped(
      'teacher',
      '/GetStudnetsMarks2.asmx',
      'GetStudentsMarks2',
      (subject) => ({ StudnetID: String(school.taughtStudent), SubjectID: subject }),
      school.taughtSubject,
      school.untaughtSubject,
    );
    await expectScoped(
      'teacher',
      '/GetTeacherGroups.asmx',
      'GetTeacherGrpupsByID',
      (id) => ({ Tid: id }),
      school.teacher,
      school.otherTeacher,
    );
  });

  test('a student sees themself only', async () => {
    await expectScoped(
      'pupil',
      INFO,
      'GetStudentInfoById',
      (id) => ({ StudentId: id }),
      school.child,
      school.otherStudent,
    );
  });
});

describe('scopes on documents', () => {
  let running: RemoteTestSchool;
  let service: RunningService;
  let records: { child: number; childClass: number; other: number; otherClass: number; term: number };
  let secret: string;
  beforeAll(async () => {
    running = await startRemoteTestSchool({ CONTRACT: 'typed' }, { now: () => TEST_TODAY });
    service = running.service;
    const store = service.store;
    const school = await pickSchool(store.db);
    const recordOf = (student: number) =>
      store.db
        .selectFrom('student_records')
        .select(['id', 'class_id'])
        .where('student_id', '=', student)
        .executeTakeFirstOrThrow();
    const [child, other] = [await recordOf(school.child), await recordOf(school.otherStudent)];
    const term = await store.db.selectFrom('terms').select('id').orderBy('id').executeTakeFirstOrThrow();
    records = {
      child: child.id,
      childClass: child.class_id,
      other: other.id,
      otherClass: other.class_id,
      term: term.id,
    };
    const scope = `guardian:${school.guardian}`;
    secret = (await addTestCaller(service.store, {
      name: 'parent',
      secret: true,
      scope,
      operations: ['documents'],
    })) as string;
    await service.readCallers();
  });
  afterAll(() => running.close());

  test("a guardian gets their child's term book; another child's answers as an unknown record", async () => {
    const book = (srid: number, classId: number, binding: Binding) =>
      remoteCall(
        service.url,
        '/BookPdf.asmx',
        'GetBookPdfByTerm',
        { termId: String(records.term), srid: String(srid), classId: String(classId) },
        binding,
        { headers: { Authorization: basic('parent', secret) } },
      );
    for (const binding of ['json', 'soap11'] as const) {
      const own = await book(records.child, records.childClass, binding);
      expect([binding, own.status, own.text.includes('term-book-')]).toEqual([binding, 200, true]);
      const other = await book(records.other, records.otherClass, binding);
      const unknown = await book(999999, records.otherClass, binding);
      expect([binding, other.status, other.text]).toEqual([binding, unknown.status, unknown.text]);
    }
  });
});

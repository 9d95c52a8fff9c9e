import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { addCaller } from '../../src/access/caller-admin';
import { keyFor, payloadSealer } from '../../src/lib/payload-sealer';
import type { Database } from '../../src/store/schema';
import type { Session } from '../../src/store/session';

/**
 * The probes of `bench:timing` for scope: every operation that answers a record out of the
 * caller's scope as an unknown one, called by a guardian-scoped and a teacher-scoped caller with
 * ids out of its scope and ids the school does not have. Each answer is the same; the benchmark
 * asks whether its time is.
 */

/** One operation asked the two ways; `parameters(first, index)` for the nth call of the first or second kind. */
export interface TimingProbe {
  readonly label: string;
  readonly path: string;
  readonly operation: string;
  readonly kinds: readonly [string, string];
  readonly headers?: Readonly<Record<string, string>>;
  parameters(first: boolean, index: number): Record<string, string>;
}

const KINDS = ['out of scope', 'unknown'] as const;

type Device = { readonly applicationId: string; readonly deviceId: string };

/** A push's parameters: to the nth of `devices` for the first kind, else to a device of the application no one has. */
export function pushTo(devices: readonly Device[], applicationId: string): TimingProbe['parameters'] {
  return (first, index) => {
    const device = devices[index % devices.length];
    return {
      applicationID: first ? device.applicationId : applicationId,
      senderId: 'timing-benchmark',
      deviceId: first ? device.deviceId : `unknown-device-${index}`,
      notes: 'The timetable for next week is published.',
      notes_type: 'general',
    };
  };
}

/** The ids a scoped caller cannot see, of each kind of record, and one it can for the other parameters. */
interface OutOfScope {
  readonly students: number[];
  readonly records: number[];
  readonly classes: number[];
  readonly exams: number[];
  readonly teachers: number[];
  readonly devices: Device[];
}

const ids = async (rows: Promise<Array<{ id: number }>>) => (await rows).map((row) => row.id);

/** Everything of the school whose class is not in `classes`, whose student is not in `students`, and so on. */
async function outsideOf(
  db: Kysely<Database>,
  seen: { students: number[]; classes: number[]; guardians: number[]; teacher?: number },
): Promise<OutOfScope> {
  const none = [-1];
  const devices = await db
    .selectFrom('devices')
    .select(['application_id', 'device_id'])
    .where('enabled', '=', 1)
    .where('guardian_id', 'not in', [...seen.guardians, ...none])
    .orderBy('id')
    .execute();
  return {
    students: await ids(
      db
        .selectFrom('students')
        .select('id')
        .where('id', 'not in', [...seen.students, ...none])
        .orderBy('id')
        .execute(),
    ),
    records: await ids(
      db
        .selectFrom('student_records')
        .select('id')
        .where('student_id', 'not in', [...seen.students, ...none])
        .where('class_id', 'not in', [...seen.classes, ...none])
        .orderBy('id')
        .execute(),
    ),
    classes: await ids(
      db
        .selectFrom('classes')
        .select('id')
        .where('id', 'not in', [...seen.classes, ...none])
        .orderBy('id')
        .execute(),
    ),
    exams: await ids(
      db
        .selectFrom('exams')
        .select('id')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('exam_slots')
                .select('exam_slots.id')
                .whereRef('exam_slots.exam_id', '=', 'exams.id')
                .where('exam_slots.class_id', 'in', [...seen.classes, ...none]),
            ),
          ),
        )
        .orderBy('id')
        .execute(),
    ),
    teachers: await ids(
      db
        .selectFrom('teachers')
        .select('id')
        .where('id', '!=', seen.teacher ?? -1)
        .orderBy('id')
        .execute(),
    ),
    devices: devices.map((row) => ({ applicationId: row.application_id, deviceId: row.device_id })),
  };
}

/** One past the largest id of each table: where the unknown ids start. */
async function unknownFrom(
  db: Kysely<Database>,
  table: 'students' | 'student_records' | 'classes' | 'exams' | 'teachers',
) {
  const row = await db
    .selectFrom(table)
    .select(({ fn }) => fn.max('id').as('largest'))
    .executeTakeFirstOrThrow();
  return Number(row.largest ?? 0) + 1_000;
}

const basic = (name: string, secret: string) => `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;

/**
 * Adds a guardian-scoped and a teacher-scoped caller to the store of a demo school (before the
 * service starts) and returns the probes that call every scoped operation as each.
 */
export async function scopedProbes(store: Session, serviceBaseUrl: string): Promise<TimingProbe[]> {
  const { db } = store;
  const family = await db
    .selectFrom('devices')
    .innerJoin('student_guardians', 'student_guardians.guardian_id', 'devices.guardian_id')
    .select(['devices.guardian_id as guardian', 'student_guardians.student_id as child'])
    .orderBy('devices.id')
    .executeTakeFirstOrThrow();
  const children = await db
    .selectFrom('student_guardians')
    .select('student_id as id')
    .where('guardian_id', '=', family.guardian)
    .execute();
  const childIds = children.map((row) => row.id);
  const childClasses = await ids(
    db.selectFrom('student_records').select('class_id as id').where('student_id', 'in', childIds).execute(),
  );
  const assignment = await db
    .selectFrom('teacher_assignments')
    .select(['teacher_id', 'subject_id'])
    .where('class_id', '=', childClasses[0])
    .orderBy('teacher_id')
    .executeTakeFirstOrThrow();
  const teacher = assignment.teacher_id;
  const taughtClasses = await ids(
    db.selectFrom('teacher_assignments').select('class_id as id').where('teacher_id', '=', teacher).execute(),
  );
  const taughtStudents = await ids(
    db.selectFrom('student_records').select('student_id as id').where('class_id', 'in', taughtClasses).execute(),
  );
  const taughtGuardians = await ids(
    db
      .selectFrom('student_guardians')
      .select('guardian_id as id')
      .where('student_id', 'in', [...taughtStudents, -1])
      .execute(),
  );
  const guardianSees = { students: childIds, classes: childClasses, guardians: [family.guardian] };
  const teacherSees = { students: taughtStudents, classes: taughtClasses, guardians: taughtGuardians, teacher };
  const [outsideGuardian, outsideTeacher] = [await outsideOf(db, guardianSees), await outsideOf(db, teacherSees)];
  const unknown = {
    students: await unknownFrom(db, 'students'),
    records: await unknownFrom(db, 'student_records'),
    classes: await unknownFrom(db, 'classes'),
    exams: await unknownFrom(db, 'exams'),
    teachers: await unknownFrom(db, 'teachers'),
  };
  const term = (await db.selectFrom('terms').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const assessment = (
    await db.selectFrom('assessments').select('id').where('class_id', '=', taughtClasses[0]).executeTakeFirstOrThrow()
  ).id;
  const applicationId = outsideGuardian.devices[0].applicationId;

  const sealer = payloadSealer(keyFor(randomBytes(32), 'caller-digest-secrets'));
  const callerHeaders = async (name: string, scope: string) => {
    const caller = {
      name,
      networks: [],
      secret: true,
      wsDigest: false,
      operations: ['all'],
      scope,
      expires: undefined,
    };
    const { secret } = await addCaller(store, caller, sealer, new Date());
    return { Authorization: basic(name, secret as string) };
  };
  const guardian = await callerHeaders('timing-guardian', `guardian:${family.guardian}`);
  const teacherHeaders = await callerHeaders('timing-teacher', `teacher:${teacher}`);

  /** The nth id of a kind: cycling through those out of scope, or a new unknown one each time. */
  const pick = (outside: number[], unknownStart: number) => (first: boolean, index: number) =>
    String(first ? outside[index % outside.length] : unknownStart + index);

  const probes: TimingProbe[] = [];
  for (const [who, headers, outside] of [
    ['guardian', guardian, outsideGuardian],
    ['teacher', teacherHeaders, outsideTeacher],
  ] as const) {
    const student = pick(outside.students, unknown.students);
    const record = pick(outside.records, unknown.records);
    const classId = pick(outside.classes, unknown.classes);
    const exam = pick(outside.exams, unknown.exams);
    const probe = (path: string, operation: string, parameters: TimingProbe['parameters']) =>
      probes.push({ label: `${operation} (${who})`, path, operation, kinds: KINDS, headers, parameters });
    probe('/GetStudentsInformation.asmx', 'GetStudentInfoById', (first, n) => ({ StudentId: student(first, n) }));
    probe('/GetStudentsInformation.asmx', 'GetStudentInfoByRecId', (first, n) => ({ StudentRecId: record(first, n) }));
    probe('/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', (first, n) => ({ STDid: student(first, n) }));
    probe('/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', (first, n) => ({
      StudnetID: student(first, n),
      SubjectID: String(assignment.subject_id),
    }));
    probe('/GetStudnetNote2.asmx', 'GetStudentNoteByID', (first, n) => ({ STDid: student(first, n) }));
    probe('/GetStudentsAudit.asmx', 'GetAllAuditsByClassId', (first, n) => ({ classId: classId(first, n) }));
    probe('/GetGeneralNoteByClasssID.asmx', 'GetStudentsGnote', (first, n) => ({ ClassID: classId(first, n) }));
    probe('/Scheduals.asmx', 'GetExamTableByExamId', (first, n) => ({ ExamId: exam(first, n) }));
    probe('/GetTeacherSubjects.asmx', 'GetTeacherSubjectsByID', (first, n) => ({
      Tid: String(teacher),
      TClassid: classId(first, n),
    }));
    probe('/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', (first, n) => ({
      Tid: pick(outside.teachers, unknown.teachers)(first, n),
    }));
    probe('/GenerateStudentReport.asmx', 'GenerateReport', (first, n) => ({
      studentId: student(first, n),
      studentClass: String(childClasses[0]),
    }));
    probe('/BookPdf.asmx', 'GetBookPdfByTerm', (first, n) => ({
      termId: String(term),
      srid: record(first, n),
      classId: String(childClasses[0]),
    }));
    probe('/NotificationNotes.asmx', 'SendMarkNotes', (first, n) => ({
      id: String(assessment),
      id_class: classId(first, n),
      baseUrlSchool: serviceBaseUrl,
    }));
    probe('/PushNotificationMobile.asmx', 'PushNotificationToGateway', pushTo(outside.devices, applicationId));
  }
  return probes;
}

import type { Kysely } from 'kysely';
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

/**
 * PushNotificationToGateway by scoped callers, through every binding: a guardian pushes to their
 * own devices, a student to their guardians', a teacher to the guardians' of the students they
 * teach. A push to any other family's device answers as one to an unknown device, the same bytes
 * but for the delivery reference (new with every call), and nothing is queued for it.
 */
const PUSH = '/PushNotificationMobile.asmx';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

interface Device {
  readonly id: number;
  readonly applicationId: string;
  readonly deviceId: string;
}

/** For a caller's scope: a device it reaches and one of another family. */
interface Targets {
  readonly scope: string;
  readonly reached: Device;
  readonly unreached: Device;
}

async function devicesOf(db: Kysely<Database>, guardians: readonly number[], inside: boolean): Promise<Device> {
  const row = await db
    .selectFrom('devices')
    .select(['id', 'application_id', 'device_id'])
    .where('enabled', '=', 1)
    .where('guardian_id', inside ? 'in' : 'not in', guardians)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, applicationId: row.application_id, deviceId: row.device_id };
}

async function pickTargets(db: Kysely<Database>): Promise<Record<'parent' | 'pupil' | 'teacher', Targets>> {
  const guardianDevice = await db
    .selectFrom('devices')
    .innerJoin('student_guardians', 'student_guardians.guardian_id', 'devices.guardian_id')
    .select(['devices.guardian_id as guardian', 'student_guardians.student_id as child'])
    .where('devices.enabled', '=', 1)
    .orderBy('devices.id')
    .executeTakeFirstOrThrow();
  const childGuardians = (
    await db
      .selectFrom('student_guardians')
      .select('guardian_id')
      .where('student_id', '=', guardianDevice.child)
      .execute()
  ).map((row) => row.guardian_id);
  const teacher = await db
    .selectFrom('teacher_assignments')
    .innerJoin('student_records', 'student_records.class_id', 'teacher_assignments.class_id')
    .select('teacher_assignments.teacher_id as teacher')
    .where('student_records.student_id', '=', guardianDevice.child)
    .orderBy('teacher_assignments.teacher_id')
    .executeTakeFirstOrThrow();
  const taughtGuardians = (
    await db
      .selectFrom('teacher_assignments')
      .innerJoin('student_records', 'student_records.class_id', 'teacher_assignments.class_id')
      .innerJoin('student_guardians', 'student_guardians.student_id', 'student_records.student_id')
      .select('student_guardians.guardian_id')
      .distinct()
      .where('teacher_assignments.teacher_id', '=', teacher.teacher)
      .execute()
  ).map((row) => row.guardian_id);
  const targets = async (scope: string, guardians: readonly number[]) => ({
    scope,
    reached: await devicesOf(db, guardians, true),
    unreached: await devicesOf(db, guardians, false),
  });
  return {
    parent: await targets(`guardian:${guardianDevice.guardian}`, [guardianDevice.guardian]),
    pupil: await targets(`student:${guardianDevice.child}`, childGuardians),
    teacher: await targets(`teacher:${teacher.teacher}`, taughtGuardians),
  };
}

describe('pushes in scope', () => {
  let running: RemoteTestSchool;
  let targets: Record<'parent' | 'pupil' | 'teacher', Targets>;
  const secrets = new Map<string, string>();
  beforeAll(async () => {
    running = await startRemoteTestSchool({
      PUSH_PER_SENDER_PER_MINUTE: '1000',
      PUSH_PER_CALLER_PER_MINUTE: '1000',
      PUSH_PER_DEVICE_PER_MINUTE: '1000',
    });
    const { store } = running.service;
    targets = await pickTargets(store.db);
    const scopes = {
      ...Object.fromEntries(Object.entries(targets).map(([name, t]) => [name, t.scope])),
      office: 'school',
    };
    for (const [name, scope] of Object.entries(scopes)) {
      const secret = await addTestCaller(store, { name, secret: true, scope, operations: ['notifications'] });
      secrets.set(name, secret as string);
    }
    await running.service.readCallers();
  });
  afterAll(() => running.close());

  /** How many pushes are queued for the device. */
  async function queuedFor(device: Device): Promise<number> {
    const rows = await running.service.store.db
      .selectFrom('outbox_messages')
      .select('id')
      .where('device_id', '=', device.id)
      .execute();
    return rows.length;
  }

  /**
   * Pushes as the caller; the status, the answer's bytes with the reference (where the contract
   * returns one) masked, and how many pushes it queued for `counted`. The answer comes once the
   * push is committed or rehearsed, so the outbox already shows it.
   */
  async function push(caller: string, device: Omit<Device, 'id'>, binding: Binding, counted: Device) {
    const before = await queuedFor(counted);
    const answer = await remoteCall(
      running.service.url,
      PUSH,
      'PushNotificationToGateway',
      {
        applicationID: device.applicationId,
        senderId: caller,
        deviceId: device.deviceId,
        notes: 'The trip leaves at 8:00.',
        notes_type: 'general',
      },
      binding,
      { headers: { Authorization: basic(caller, secrets.get(caller) as string) } },
    );
    const queued = (await queuedFor(counted)) - before;
    return { status: answer.status, masked: answer.text.replace(UUID, 'REFERENCE'), queued };
  }

  describe.each(['parent', 'pupil', 'teacher'] as const)('%s', (caller) => {
    test.each(BINDINGS)("pushes to a device it reaches; another family's answers as unknown (%s)", async (binding) => {
      const { reached, unreached } = targets[caller];
      const own = await push(caller, reached, binding, reached);
      expect([own.status, own.queued]).toEqual([200, 1]);
      const other = await push(caller, unreached, binding, unreached);
      const unknown = { applicationId: unreached.applicationId, deviceId: 'no-such-device' };
      const answerToUnknown = await push(caller, unknown, binding, unreached);
      expect([other.status, other.masked, other.queued]).toEqual([answerToUnknown.status, answerToUnknown.masked, 0]);
      // The school reaches that device: it is a real one, refused for the scope alone.
      expect((await push('office', unreached, binding, unreached)).queued).toBe(1);
    });
  });
});

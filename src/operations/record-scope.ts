import type { Visibility } from '../access/visibility';
import type { OperationPolicy, RecordKind } from '../contract/operation-policies';
import { enabledDevice } from '../store/queries/directory';
import { examTimetableInClasses } from '../store/queries/school-lists';
import type { Session } from '../store/session';
import { identifier } from './identifier';

/**
 * The records a call names, as its operation's policy row declares them (`records`), checked
 * against the caller's scope before the call may leave for the legacy service, which knows nothing
 * of this service's callers. Each kind is checked by the rule its handlers apply, so that a record
 * forwarded is one the caller would be shown here; the handlers check again themselves.
 */

type ParameterValue = string | number | null | undefined;
type NamedValues = ReadonlyMap<RecordKind, ParameterValue>;
type KindCheck = (
  value: ParameterValue,
  named: NamedValues,
  visibility: Visibility,
  store: Session,
) => Promise<boolean>;

/** An identifier, whether the wire carried it as text or as an int; undefined when it names nothing. */
function idOf(value: ParameterValue): number | undefined {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 1 && value <= 2147483647 ? value : undefined;
  return identifier(value ?? null);
}

/** Checks an identifier by `seen`; one that names nothing is no record the caller sees. */
function byId(seen: (id: number, visibility: Visibility, store: Session) => Promise<boolean> | boolean): KindCheck {
  return async (value, _named, visibility, store) => {
    const id = idOf(value);
    return id !== undefined && seen(id, visibility, store);
  };
}

const CHECKS: Readonly<Record<RecordKind, KindCheck>> = {
  student: byId((id, visibility) => visibility.student(id)),
  enrolment: byId(async (id, visibility) => (await visibility.enrolment(id)) !== undefined),
  class: byId((id, visibility) => visibility.class(id)),
  'notified-class': byId((id, visibility) => visibility.mayNotifyClass(id)),
  'own-teacher': byId((id, visibility) => visibility.teacherId === id),
  // Only a teacher is held to their own id; anyone else is bounded by the class the call names.
  'class-teacher': byId((id, visibility) => visibility.teacherId === undefined || visibility.teacherId === id),
  // An exam is seen where it has a slot in a class the caller sees, as its timetable is shown.
  exam: byId(async (id, visibility, store) => {
    const classes = (await visibility.classes()) ?? new Set<number>();
    return (await examTimetableInClasses(store, id, classes)) !== undefined;
  }),
  'subject-of-student': async (value, named, visibility) => {
    const [studentId, subjectId] = [idOf(named.get('student')), idOf(value)];
    return studentId !== undefined && subjectId !== undefined && visibility.studentSubject(studentId, subjectId);
  },
  // Read with its device, below.
  application: async () => true,
  device: async (value, named, visibility, store) => {
    const reached = await visibility.pushableGuardians();
    const device = await enabledDevice(store, String(named.get('application') ?? ''), String(value ?? ''));
    return device !== undefined && (reached === undefined || reached.has(device.guardianId));
  },
};

/** The kinds of record the call's parameters name, with their values. */
function namedRecords(policy: OperationPolicy, parameters: Readonly<Record<string, ParameterValue>>): NamedValues {
  const named = new Map<RecordKind, ParameterValue>();
  const declared = policy.records as Readonly<Record<string, RecordKind | undefined>>;
  for (const parameter in declared) {
    const kind = declared[parameter];
    if (kind !== undefined) named.set(kind, parameters[parameter]);
  }
  return named;
}

/**
 * Whether the caller sees every record the call names: always for a school-wide caller; for a
 * scoped one, each named record by its kind's rule (a record this store does not hold is not seen).
 */
export async function recordsInScope(
  policy: OperationPolicy,
  parameters: Readonly<Record<string, ParameterValue>>,
  visibility: Visibility,
  store: Session,
): Promise<boolean> {
  if (visibility.seesEverything) return true;
  const named = namedRecords(policy, parameters);
  for (const [kind, value] of named) if (!(await CHECKS[kind](value, named, visibility, store))) return false;
  return true;
}

/** Where each kind's record goes in the audit trail; a kind not here is no one's record by itself. */
const AUDITED_AS: Partial<Record<RecordKind, 'student' | 'teacher' | 'class'>> = {
  student: 'student',
  class: 'class',
  'notified-class': 'class',
  'own-teacher': 'teacher',
  'class-teacher': 'teacher',
};

/**
 * Tells `add` each student, teacher and class the call names (a student record as its student and
 * class, when the store holds it), for the audit trail of a call another service answered.
 */
export async function recordsAsked(
  policy: OperationPolicy,
  parameters: Readonly<Record<string, ParameterValue>>,
  visibility: Visibility,
  add: (kind: 'student' | 'teacher' | 'class', id: number) => void,
): Promise<void> {
  for (const [kind, value] of namedRecords(policy, parameters)) {
    const id = idOf(value);
    const auditedAs = AUDITED_AS[kind];
    if (id === undefined) continue;
    if (auditedAs !== undefined) add(auditedAs, id);
    else if (kind === 'enrolment') {
      const enrolment = await visibility.enrolment(id);
      if (enrolment) {
        add('student', enrolment.studentId);
        add('class', enrolment.classId);
      }
    }
  }
}

import type { OperationName, OperationTypes } from './operation-types';

/**
 * What the service holds of each operation beyond its WSDL, declared once, in one row per
 * operation: who may call it, whether and how a call is audited, what it does besides answering,
 * and the bound of each text parameter. It sits beside the contract types because every layer that
 * decides about a call reads it: the access check (groups), the pipeline (bounds, audit), the audit
 * command (which records an answer touches) and the migration routes (which calls act). The type
 * makes a new operation without a row, or a new text parameter without a bound, a compile error.
 */

/** The groups a caller's operations may be given by; `public` is everybody's and cannot be granted. */
export type OperationGroup = 'public' | 'queries' | 'documents' | 'notifications' | 'auth-code';

export const GRANTABLE_GROUPS = ['queries', 'documents', 'notifications', 'auth-code', 'all'] as const;

/**
 * Which records the audit trail keeps of a call: `none` (the answer shows nothing personal);
 * `shown`, the students, teachers and classes the answer shows; `class`, only the class the handler
 * names, for a class's attendance, whose thirty students would cost thirty rows a call (found for a
 * student through their enrolment in it).
 */
export type AuditRule = 'none' | 'shown' | 'class';

/**
 * What a call does besides answering: `reads` nothing more; `sends` queues a message (or forwards
 * one to a partner school). A call that sends must be acted on by one service only, whichever of
 * two answers it (see the migration routes).
 */
export type SideEffect = 'reads' | 'sends';

type TextParameters<Name extends OperationName> = {
  [Parameter in keyof OperationTypes[Name]['parameters'] as OperationTypes[Name]['parameters'][Parameter] extends number
    ? never
    : Parameter]: number;
};

export interface OperationPolicy<Name extends OperationName = OperationName> {
  readonly group: OperationGroup;
  readonly audit: AuditRule;
  readonly effect: SideEffect;
  /**
   * The longest text, in characters, each string parameter may carry; a longer one is refused
   * before the operation runs, so that nothing oversized is stored or forwarded (ints bound themselves).
   */
  readonly bounds: TextParameters<Name>;
}

/** An identifier sent as text: ten digits, with room for spaces and a sign. */
const IDENTIFIER = 32;
/** A school's base URL. */
const URL = 2_048;
/** Text a person writes in a notification; PUSH_NOTES_MAX_LENGTH bounds it further. */
const NOTES = 100_000;

const query = <Name extends OperationName>(bounds: TextParameters<Name>, audit: AuditRule = 'shown') =>
  ({ group: 'queries', audit, effect: 'reads', bounds }) as const;

export const OPERATION_POLICIES: { readonly [Name in OperationName]: OperationPolicy<Name> } = {
  HelloWorld: { group: 'public', audit: 'none', effect: 'reads', bounds: {} },
  AuthCode: { group: 'auth-code', audit: 'shown', effect: 'sends', bounds: { code: 16, phone: 32 } },
  GenerateReport: { group: 'documents', audit: 'shown', effect: 'reads', bounds: { studentClass: IDENTIFIER } },
  GetBookPdfByTerm: {
    group: 'documents',
    audit: 'shown',
    effect: 'reads',
    bounds: { termId: IDENTIFIER, srid: IDENTIFIER, classId: IDENTIFIER },
  },
  GetStudentInfoByRecId: query({ StudentRecId: IDENTIFIER }),
  GetStudentInfoById: query({ StudentId: IDENTIFIER }),
  GetStudentSubjectsByID: query({ STDid: IDENTIFIER }),
  GetTeacherSubjectsByID: query({ Tid: IDENTIFIER, TClassid: IDENTIFIER }),
  GetStudentsMarks2: query({ StudnetID: IDENTIFIER, SubjectID: IDENTIFIER }),
  GetAllAuditsByClassId: query({ classId: IDENTIFIER }, 'class'),
  GetStudentsGnote: query({ ClassID: IDENTIFIER }),
  GetTeacherGrpupsByID: query({ Tid: IDENTIFIER }),
  GetStudentNoteByID: query({ STDid: IDENTIFIER }),
  GetExamTableByExamId: query({ ExamId: IDENTIFIER }),
  GetStudentsNoteType: query({}, 'none'),
  PushNotificationToGateway: {
    group: 'notifications',
    audit: 'shown',
    effect: 'sends',
    bounds: { applicationID: 256, senderId: 256, deviceId: 512, notes: NOTES, notes_type: 256 },
  },
  SendMarkNotes: {
    group: 'notifications',
    audit: 'shown',
    effect: 'sends',
    bounds: { id: IDENTIFIER, id_class: IDENTIFIER, baseUrlSchool: URL },
  },
  GetNameAbsenceType: {
    group: 'notifications',
    audit: 'none',
    effect: 'reads',
    bounds: { id: IDENTIFIER, baseUrlSchool: URL },
  },
};

export const OPERATION_NAMES = Object.keys(OPERATION_POLICIES) as OperationName[];

/** The operations whose answers show students' records but are audited by the class they list. */
export const CLASS_RECORDED_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter(
  (name) => OPERATION_POLICIES[name].audit === 'class',
);

/** The first parameter longer than its bound, with the bound; undefined when every one fits. */
export function parameterTooLong(
  operation: OperationName,
  parameters: Readonly<Record<string, string | number | null>>,
): { name: string; limit: number } | undefined {
  const bounds = OPERATION_POLICIES[operation].bounds as Readonly<Record<string, number>>;
  for (const name in bounds) {
    const value = parameters[name];
    if (typeof value !== 'string' || value.length <= bounds[name]) continue;
    // Length in characters: a UTF-16 string holds at most twice as many units as characters.
    if (value.length > 2 * bounds[name] || [...value].length > bounds[name]) return { name, limit: bounds[name] };
  }
  return undefined;
}

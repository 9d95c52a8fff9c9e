import type { OperationName } from '../contract/operation-types';

/**
 * The groups a caller's operations may be given by, and whether a call of the operation is
 * recorded in the audit trail: every operation that returns personal data, issues a document or
 * causes a message. The type makes a new operation without a group a compile error.
 */
export type OperationGroup = 'public' | 'queries' | 'documents' | 'notifications' | 'auth-code';

export const GRANTABLE_GROUPS = ['queries', 'documents', 'notifications', 'auth-code', 'all'] as const;

interface OperationAccess {
  readonly group: OperationGroup;
  readonly audited: boolean;
  /**
   * Whether the audit trail records the students, teachers and classes the result shows (the
   * default), or only those the handler names: a class's attendance, whose thirty students would
   * cost thirty rows a call, is recorded by its class, and found for a student through their
   * enrolment in it (see CLASS_RECORDED_OPERATIONS).
   */
  readonly subjectsFromResult?: false;
}

export const OPERATION_ACCESS: { readonly [Name in OperationName]: OperationAccess } = {
  HelloWorld: { group: 'public', audited: false },
  AuthCode: { group: 'auth-code', audited: true },
  GenerateReport: { group: 'documents', audited: true },
  GetBookPdfByTerm: { group: 'documents', audited: true },
  GetStudentInfoByRecId: { group: 'queries', audited: true },
  GetStudentInfoById: { group: 'queries', audited: true },
  GetStudentSubjectsByID: { group: 'queries', audited: true },
  GetTeacherSubjectsByID: { group: 'queries', audited: true },
  GetStudentsMarks2: { group: 'queries', audited: true },
  GetAllAuditsByClassId: { group: 'queries', audited: true, subjectsFromResult: false },
  GetStudentsGnote: { group: 'queries', audited: true },
  GetTeacherGrpupsByID: { group: 'queries', audited: true },
  GetStudentNoteByID: { group: 'queries', audited: true },
  GetExamTableByExamId: { group: 'queries', audited: true },
  GetStudentsNoteType: { group: 'queries', audited: false },
  PushNotificationToGateway: { group: 'notifications', audited: true },
  SendMarkNotes: { group: 'notifications', audited: true },
  GetNameAbsenceType: { group: 'notifications', audited: false },
};

/** The operations whose answers show students' records but are audited by the class they list. */
export const CLASS_RECORDED_OPERATIONS: readonly OperationName[] = (
  Object.keys(OPERATION_ACCESS) as OperationName[]
).filter((name) => OPERATION_ACCESS[name].subjectsFromResult === false);

const OPERATION_NAMES = Object.keys(OPERATION_ACCESS) as OperationName[];

/**
 * The operations a list of names and groups grants ("queries,AuthCode", "all"); throws naming the
 * first entry that is neither an operation nor a group.
 */
export function grantedOperations(entries: readonly string[]): Set<OperationName> {
  const granted = new Set<OperationName>();
  for (const entry of entries) {
    if (entry === 'all') {
      for (const name of OPERATION_NAMES) granted.add(name);
    } else if ((GRANTABLE_GROUPS as readonly string[]).includes(entry)) {
      for (const name of OPERATION_NAMES) if (OPERATION_ACCESS[name].group === entry) granted.add(name);
    } else if (Object.hasOwn(OPERATION_ACCESS, entry)) {
      granted.add(entry as OperationName);
    } else {
      throw new Error(`"${entry}" is neither an operation nor a group (${GRANTABLE_GROUPS.join(', ')})`);
    }
  }
  return granted;
}

import type { Catalog } from '../contract/catalog';
import { OPERATION_NAMES, type OperationName } from '../contract/operation-types';
import { authCode } from './auth-code';
import { getAllAuditsByClassId, getStudentsGnote } from './classes';
import { helloWorld } from './hello-world';
import { getNameAbsenceType, pushNotificationToGateway, sendMarkNotes } from './notifications';
import type { OperationHandler } from './operation';
import { generateReport, getBookPdfByTerm } from './reports';
import { getExamTableByExamId, getStudentsNoteType } from './school-lists';
import {
  getStudentInfoById,
  getStudentInfoByRecId,
  getStudentNoteById,
  getStudentSubjectsById,
  getStudentsMarks2,
} from './students';
import { getTeacherGroupsById, getTeacherSubjectsById } from './teachers';

/**
 * Every operation, by name: each declared once with its policy row and its handler
 * (`defineOperation`). The type makes a missing operation, or one filed under another's name, a
 * compile error.
 */
export type Operations = { readonly [Name in OperationName]: OperationHandler<Name> };

export const OPERATIONS: Operations = {
  AuthCode: authCode,
  HelloWorld: helloWorld,
  GenerateReport: generateReport,
  GetBookPdfByTerm: getBookPdfByTerm,
  GetStudentInfoByRecId: getStudentInfoByRecId,
  GetStudentInfoById: getStudentInfoById,
  GetStudentSubjectsByID: getStudentSubjectsById,
  GetTeacherSubjectsByID: getTeacherSubjectsById,
  GetStudentsMarks2: getStudentsMarks2,
  GetAllAuditsByClassId: getAllAuditsByClassId,
  GetStudentsGnote: getStudentsGnote,
  GetTeacherGrpupsByID: getTeacherGroupsById,
  GetStudentNoteByID: getStudentNoteById,
  GetExamTableByExamId: getExamTableByExamId,
  GetStudentsNoteType: getStudentsNoteType,
  PushNotificationToGateway: pushNotificationToGateway,
  SendMarkNotes: sendMarkNotes,
  GetNameAbsenceType: getNameAbsenceType,
};

/** Whether a call of the operation sends something, so that only the answering side of a migration may act. */
export function sends(name: OperationName): boolean {
  return OPERATIONS[name].policy.effect === 'sends';
}

/** Whether the operation's answers show no one's records (it is not audited): their shadow examples need no mask. */
export function showsNoRecords(name: string): boolean {
  return Object.hasOwn(OPERATIONS, name) && OPERATIONS[name as OperationName].policy.audit === 'none';
}

/** The operations whose answers show students' records but are audited by the class they list. */
export const CLASS_RECORDED_OPERATIONS: readonly OperationName[] = OPERATION_NAMES.filter(
  (name) => OPERATIONS[name].policy.audit === 'class',
);

/**
 * The operations, checked against the catalog read at start: the generated types already tie each
 * handler to its operation, and this refuses to start when the WSDL files declare an operation the
 * types do not know (they were not generated again) or the reverse.
 */
export function bindOperations(catalog: Catalog): Operations {
  const known = new Set<string>(Object.keys(OPERATIONS));
  const declared = new Set(catalog.operations.map((operation) => operation.name));
  const missing = [...declared].filter((name) => !known.has(name));
  const extra = [...known].filter((name) => !declared.has(name));
  if (missing.length || extra.length) {
    throw new Error(
      `operation handlers do not match the WSDL: missing ${missing.join(', ') || 'none'}; ` +
        `not in WSDL ${extra.join(', ') || 'none'} (run npm run contract:types after a WSDL change)`,
    );
  }
  return OPERATIONS;
}

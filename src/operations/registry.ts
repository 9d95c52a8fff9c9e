import type { Catalog } from '../contract/catalog';
import type { OperationName } from '../contract/operation-types';
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

/** Every operation's handler, by name: the type makes a missing or mismatched handler a compile error. */
export type Handlers = { readonly [Name in OperationName]: OperationHandler<Name> };

const HANDLERS: Handlers = {
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

/**
 * The handlers, checked against the catalog read at start: the generated types already tie each
 * handler to its operation, and this refuses to start when the WSDL files declare an operation the
 * types do not know (they were not generated again) or the reverse.
 */
export function bindHandlers(catalog: Catalog): Handlers {
  const known = new Set<string>(Object.keys(HANDLERS));
  const declared = new Set(catalog.operations.map((operation) => operation.name));
  const missing = [...declared].filter((name) => !known.has(name));
  const extra = [...known].filter((name) => !declared.has(name));
  if (missing.length || extra.length) {
    throw new Error(
      `operation handlers do not match the WSDL: missing ${missing.join(', ') || 'none'}; ` +
        `not in WSDL ${extra.join(', ') || 'none'} (run npm run contract:types after a WSDL change)`,
    );
  }
  return HANDLERS;
}

import type { Catalog } from '../contract/catalog';
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

const handlers: readonly OperationHandler[] = [
  authCode,
  helloWorld,
  generateReport,
  getBookPdfByTerm,
  getStudentInfoByRecId,
  getStudentInfoById,
  getStudentSubjectsById,
  getTeacherSubjectsById,
  getStudentsMarks2,
  getAllAuditsByClassId,
  getStudentsGnote,
  getTeacherGroupsById,
  getStudentNoteById,
  getExamTableByExamId,
  getStudentsNoteType,
  pushNotificationToGateway,
  sendMarkNotes,
  getNameAbsenceType,
];

export type HandlerLookup = (operationName: string) => OperationHandler;

/**
 * Pairs every catalog operation with its handler and refuses to start when either side has one
 * the other lacks, so a WSDL edit without a handler (or the reverse) fails at start, not per call.
 */
export function bindHandlers(catalog: Catalog): HandlerLookup {
  const byName = new Map(handlers.map((handler) => [handler.name, handler]));
  const catalogNames = new Set(catalog.operations.map((operation) => operation.name));
  const missing = [...catalogNames].filter((name) => !byName.has(name));
  const extra = [...byName.keys()].filter((name) => !catalogNames.has(name));
  if (missing.length || extra.length) {
    throw new Error(
      `operation handlers do not match the WSDL: missing ${missing.join(', ') || 'none'}; not in WSDL ${extra.join(', ') || 'none'}`,
    );
  }
  return (operationName) => {
    const handler = byName.get(operationName);
    if (!handler) throw new Error(`no handler for ${operationName}`);
    return handler;
  };
}

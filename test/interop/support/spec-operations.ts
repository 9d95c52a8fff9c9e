/**
 * The operations of the spec's table (service-interface.md, 4.2) by endpoint path and name: what
 * every client stack must reach. Written out rather than read from the catalog, so that an
 * operation the WSDL lost is caught instead of silently dropped from the expectation.
 */
export const SPEC_OPERATIONS: ReadonlyArray<{ endpoint: string; operation: string }> = [
  { endpoint: '/AuthCodeSending.asmx', operation: 'AuthCode' },
  { endpoint: '/GetStudentsNote.asmx', operation: 'HelloWorld' },
  { endpoint: '/GenerateStudentReport.asmx', operation: 'GenerateReport' },
  { endpoint: '/BookPdf.asmx', operation: 'GetBookPdfByTerm' },
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoByRecId' },
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoById' },
  { endpoint: '/GetStudentsSubjects.asmx', operation: 'GetStudentSubjectsByID' },
  { endpoint: '/GetTeacherSubjects.asmx', operation: 'GetTeacherSubjectsByID' },
  { endpoint: '/GetStudnetsMarks2.asmx', operation: 'GetStudentsMarks2' },
  { endpoint: '/GetStudentsAudit.asmx', operation: 'GetAllAuditsByClassId' },
  { endpoint: '/GetGeneralNoteByClasssID.asmx', operation: 'GetStudentsGnote' },
  { endpoint: '/GetTeacherGroups.asmx', operation: 'GetTeacherGrpupsByID' },
  { endpoint: '/GetStudnetNote2.asmx', operation: 'GetStudentNoteByID' },
  { endpoint: '/Scheduals.asmx', operation: 'GetExamTableByExamId' },
  { endpoint: '/GetNoteType.asmx', operation: 'GetStudentsNoteType' },
  { endpoint: '/PushNotificationMobile.asmx', operation: 'PushNotificationToGateway' },
  { endpoint: '/NotificationNotes.asmx', operation: 'SendMarkNotes' },
  { endpoint: '/NotificationNotes.asmx', operation: 'GetNameAbsenceType' },
];

/** The 16 endpoint paths, each once: the clients are given these and find the operations themselves. */
export const SPEC_ENDPOINTS: readonly string[] = [...new Set(SPEC_OPERATIONS.map(({ endpoint }) => endpoint))];

/** "endpoint operation" keys, sorted, so that two lists of calls compare with a readable diff (an operation not found reads "undefined"). */
export function operationKeys(calls: ReadonlyArray<{ endpoint: string; operation: string | undefined }>): string[] {
  return calls.map(({ endpoint, operation }) => `${endpoint} ${operation}`).sort();
}

/**
 * The operation table of the spec (service-interface.md, 4.2): path, operation and parameters,
 * spelled and ordered exactly as there. Written out rather than read from the catalog, so that
 * tests hold the WSDL files and the clients against the spec instead of against themselves.
 */
export interface SpecOperation {
  readonly endpoint: string;
  readonly operation: string;
  readonly parameters: readonly string[];
}

export const SPEC_OPERATIONS: readonly SpecOperation[] = [
  { endpoint: '/AuthCodeSending.asmx', operation: 'AuthCode', parameters: ['code', 'phone'] },
  { endpoint: '/GetStudentsNote.asmx', operation: 'HelloWorld', parameters: [] },
  { endpoint: '/GenerateStudentReport.asmx', operation: 'GenerateReport', parameters: ['studentId', 'studentClass'] },
  { endpoint: '/BookPdf.asmx', operation: 'GetBookPdfByTerm', parameters: ['termId', 'srid', 'classId'] },
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoByRecId', parameters: ['StudentRecId'] },
  { endpoint: '/GetStudentsInformation.asmx', operation: 'GetStudentInfoById', parameters: ['StudentId'] },
  { endpoint: '/GetStudentsSubjects.asmx', operation: 'GetStudentSubjectsByID', parameters: ['STDid'] },
  { endpoint: '/GetTeacherSubjects.asmx', operation: 'GetTeacherSubjectsByID', parameters: ['Tid', 'TClassid'] },
  { endpoint: '/GetStudnetsMarks2.asmx', operation: 'GetStudentsMarks2', parameters: ['StudnetID', 'SubjectID'] },
  { endpoint: '/GetStudentsAudit.asmx', operation: 'GetAllAuditsByClassId', parameters: ['classId'] },
  { endpoint: '/GetGeneralNoteByClasssID.asmx', operation: 'GetStudentsGnote', parameters: ['ClassID'] },
  { endpoint: '/GetTeacherGroups.asmx', operation: 'GetTeacherGrpupsByID', parameters: ['Tid'] },
  { endpoint: '/GetStudnetNote2.asmx', operation: 'GetStudentNoteByID', parameters: ['STDid'] },
  { endpoint: '/Scheduals.asmx', operation: 'GetExamTableByExamId', parameters: ['ExamId'] },
  { endpoint: '/GetNoteType.asmx', operation: 'GetStudentsNoteType', parameters: [] },
  {
    endpoint: '/PushNotificationMobile.asmx',
    operation: 'PushNotificationToGateway',
    parameters: ['applicationID', 'senderId', 'deviceId', 'notes', 'notes_type'],
  },
  { endpoint: '/NotificationNotes.asmx', operation: 'SendMarkNotes', parameters: ['id', 'id_class', 'baseUrlSchool'] },
  { endpoint: '/NotificationNotes.asmx', operation: 'GetNameAbsenceType', parameters: ['id', 'baseUrlSchool'] },
];

/** The 16 endpoint paths, each once, in the order of the table. */
export const SPEC_ENDPOINTS: readonly string[] = [...new Set(SPEC_OPERATIONS.map(({ endpoint }) => endpoint))];

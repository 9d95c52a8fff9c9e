import { loadCatalog } from '../../src/contract/catalog';
import { WSDL_DIRECTORY } from '../../src/service';

/** The operation table of the spec (service-interface.md, 4.2), spellings and order exactly. */
const SPEC_TABLE: ReadonlyArray<[path: string, operation: string, parameters: string[]]> = [
  ['/AuthCodeSending.asmx', 'AuthCode', ['code', 'phone']],
  ['/GetStudentsNote.asmx', 'HelloWorld', []],
  ['/GenerateStudentReport.asmx', 'GenerateReport', ['studentId', 'studentClass']],
  ['/BookPdf.asmx', 'GetBookPdfByTerm', ['termId', 'srid', 'classId']],
  ['/GetStudentsInformation.asmx', 'GetStudentInfoByRecId', ['StudentRecId']],
  ['/GetStudentsInformation.asmx', 'GetStudentInfoById', ['StudentId']],
  ['/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', ['STDid']],
  ['/GetTeacherSubjects.asmx', 'GetTeacherSubjectsByID', ['Tid', 'TClassid']],
  ['/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', ['StudnetID', 'SubjectID']],
  ['/GetStudentsAudit.asmx', 'GetAllAuditsByClassId', ['classId']],
  ['/GetGeneralNoteByClasssID.asmx', 'GetStudentsGnote', ['ClassID']],
  ['/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', ['Tid']],
  ['/GetStudnetNote2.asmx', 'GetStudentNoteByID', ['STDid']],
  ['/Scheduals.asmx', 'GetExamTableByExamId', ['ExamId']],
  ['/GetNoteType.asmx', 'GetStudentsNoteType', []],
  ['/PushNotificationMobile.asmx', 'PushNotificationToGateway', ['applicationID', 'senderId', 'deviceId', 'notes', 'notes_type']],
  ['/NotificationNotes.asmx', 'SendMarkNotes', ['id', 'id_class', 'baseUrlSchool']],
  ['/NotificationNotes.asmx', 'GetNameAbsenceType', ['id', 'baseUrlSchool']],
];

describe('the catalog read from wsdl/', () => {
  test('holds the 18 operations of the spec on its 16 paths, parameters in order, spelled exactly', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(catalog.operations).toHaveLength(18);
    expect(catalog.endpoints).toHaveLength(16);
    const actual = catalog.endpoints.flatMap((endpoint) =>
      endpoint.operations.map((operation) => [endpoint.path, operation.name, operation.parameters.map((parameter) => parameter.name)]),
    );
    expect(new Set(actual.map((row) => JSON.stringify(row)))).toEqual(new Set(SPEC_TABLE.map((row) => JSON.stringify(row))));
  });

  test('keeps the order of operations that share an endpoint', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(catalog.endpointByPath('/GetStudentsInformation.asmx')?.operations.map((operation) => operation.name)).toEqual(['GetStudentInfoByRecId', 'GetStudentInfoById']);
    expect(catalog.endpointByPath('/NotificationNotes.asmx')?.operations.map((operation) => operation.name)).toEqual(['SendMarkNotes', 'GetNameAbsenceType']);
  });

  test('types studentId of GenerateReport as int and every other parameter as string', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const typed = catalog.operations.flatMap((operation) => operation.parameters.map((parameter) => `${operation.name}.${parameter.name}:${parameter.type}`));
    expect(typed.filter((entry) => !entry.endsWith(':string'))).toEqual(['GenerateReport.studentId:int']);
  });

  test('gives HelloWorld a string result and every other operation an empty response', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    const withResult = catalog.operations.filter((operation) => operation.result);
    expect(withResult.map((operation) => [operation.name, operation.result])).toEqual([['HelloWorld', { name: 'HelloWorldResult', type: 'string' }]]);
  });

  test('paths are case-sensitive', async () => {
    const catalog = await loadCatalog(WSDL_DIRECTORY);
    expect(catalog.endpointByPath('/Scheduals.asmx')).toBeDefined();
    expect(catalog.endpointByPath('/scheduals.asmx')).toBeUndefined();
  });
});

import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { NS, soap11, soap12 } from '../support/soap';

const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

let service: RunningService;
beforeAll(async () => {
  // A registered own school and room for the two calls AuthCode gets per version.
  service = await startTestService({ SCHOOL_BASE_URL: 'http://school', AUTH_CODE_PER_PHONE_PER_MINUTE: '10' });
});
afterAll(() => service.close());

describe('SOAP responses, byte for byte as ASMX', () => {
  test('SOAP 1.1 HelloWorld', async () => {
    const response = await soap11(
      `${service.url}/GetStudentsNote.asmx`,
      `<HelloWorld xmlns="${NS}" />`,
      `"${NS}HelloWorld"`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="utf-8"?>' +
        `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ${XSI_XSD}>` +
        `<soap:Body><HelloWorldResponse xmlns="${NS}"><HelloWorldResult>Hello World</HelloWorldResult>` +
        '</HelloWorldResponse></soap:Body></soap:Envelope>',
    );
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(response.text));
  });

  test('SOAP 1.2 HelloWorld', async () => {
    const response = await soap12(
      `${service.url}/GetStudentsNote.asmx`,
      `<HelloWorld xmlns="${NS}" />`,
      `${NS}HelloWorld`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/soap+xml; charset=utf-8');
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="utf-8"?>' +
        `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" ${XSI_XSD}>` +
        `<soap:Body><HelloWorldResponse xmlns="${NS}"><HelloWorldResult>Hello World</HelloWorldResult>` +
        '</HelloWorldResponse></soap:Body></soap:Envelope>',
    );
  });

  test.each([
    ['/AuthCodeSending.asmx', 'AuthCode', '<code>1234</code><phone>0500000000</phone>'],
    ['/GenerateStudentReport.asmx', 'GenerateReport', '<studentId>12</studentId><studentClass>A1</studentClass>'],
    ['/BookPdf.asmx', 'GetBookPdfByTerm', '<termId>1</termId><srid>2</srid><classId>3</classId>'],
    ['/GetStudentsInformation.asmx', 'GetStudentInfoByRecId', '<StudentRecId>1</StudentRecId>'],
    ['/GetStudentsInformation.asmx', 'GetStudentInfoById', '<StudentId>1</StudentId>'],
    ['/GetStudentsSubjects.asmx', 'GetStudentSubjectsByID', '<STDid>1</STDid>'],
    ['/GetTeacherSubjects.asmx', 'GetTeacherSubjectsByID', '<Tid>1</Tid><TClassid>2</TClassid>'],
    ['/GetStudnetsMarks2.asmx', 'GetStudentsMarks2', '<StudnetID>1</StudnetID><SubjectID>2</SubjectID>'],
    ['/GetStudentsAudit.asmx', 'GetAllAuditsByClassId', '<classId>1</classId>'],
    ['/GetGeneralNoteByClasssID.asmx', 'GetStudentsGnote', '<ClassID>1</ClassID>'],
    ['/GetTeacherGroups.asmx', 'GetTeacherGrpupsByID', '<Tid>1</Tid>'],
    ['/GetStudnetNote2.asmx', 'GetStudentNoteByID', '<STDid>1</STDid>'],
    ['/Scheduals.asmx', 'GetExamTableByExamId', '<ExamId>1</ExamId>'],
    ['/GetNoteType.asmx', 'GetStudentsNoteType', ''],
    [
      '/PushNotificationMobile.asmx',
      'PushNotificationToGateway',
      '<applicationID>a</applicationID><senderId>s</senderId><deviceId>d</deviceId>' +
        '<notes>n</notes><notes_type>t</notes_type>',
    ],
    [
      '/NotificationNotes.asmx',
      'SendMarkNotes',
      '<id>1</id><id_class>2</id_class><baseUrlSchool>http://school</baseUrlSchool>',
    ],
    ['/NotificationNotes.asmx', 'GetNameAbsenceType', '<id>1</id><baseUrlSchool>http://school</baseUrlSchool>'],
  ])('%s %s answers the empty response over both versions', async (path, operation, parameters) => {
    const body = `<${operation} xmlns="${NS}">${parameters}</${operation}>`;
    const empty = `<soap:Body><${operation}Response xmlns="${NS}" /></soap:Body></soap:Envelope>`;
    const over11 = await soap11(service.url + path, body, `"${NS}${operation}"`);
    expect([over11.status, over11.text.endsWith(empty)]).toEqual([200, true]);
    const over12 = await soap12(service.url + path, body, `${NS}${operation}`);
    expect([
      over12.status,
      over12.text.endsWith(empty),
      over12.text.includes(`xmlns:soap="http://www.w3.org/2003/05/soap-envelope"`),
    ]).toEqual([200, true, true]);
  });
});

describe('a configured namespace', () => {
  let custom: RunningService;
  beforeAll(async () => {
    custom = await startTestService({ SERVICE_NAMESPACE: 'urn:school:services' });
  });
  afterAll(() => custom.close());

  test('is the namespace of actions, requests and responses', async () => {
    const response = await soap11(
      `${custom.url}/GetStudentsNote.asmx`,
      '<HelloWorld xmlns="urn:school:services" />',
      '"urn:school:servicesHelloWorld"',
    );
    expect(response.status).toBe(200);
    expect(response.text).toContain(
      '<HelloWorldResponse xmlns="urn:school:services"><HelloWorldResult>Hello World</HelloWorldResult>',
    );
    const tempuri = await soap11(
      `${custom.url}/GetStudentsNote.asmx`,
      `<HelloWorld xmlns="${NS}" />`,
      `"${NS}HelloWorld"`,
    );
    expect(tempuri.status).toBe(500);
  });
});

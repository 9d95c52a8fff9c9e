import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import { startTestService } from '../support/service';
import { get, NS, post, soap11 } from '../support/soap';
import { TEST_TODAY } from '../support/stores';

/** The exact shapes of the typed profile and the JSON binding on the wire. */

let typed: RunningService;
let documented: RunningService;
beforeAll(async () => {
  typed = await startTestService({ CONTRACT: 'typed' }, { now: () => TEST_TODAY });
  documented = await startTestService({}, { now: () => TEST_TODAY });
});
afterAll(async () => {
  await typed.close();
  await documented.close();
});

const studentById = (service: RunningService, id: string) =>
  soap11(
    `${service.url}/GetStudentsInformation.asmx`,
    `<GetStudentInfoById xmlns="${NS}"><StudentId>${id}</StudentId></GetStudentInfoById>`,
    `"${NS}GetStudentInfoById"`,
  );

describe('typed SOAP responses', () => {
  test('carry <OpResult> with the record fields in schema order', async () => {
    const response = await studentById(typed, '3');
    expect(response.status).toBe(200);
    expect(response.text).toMatch(
      new RegExp(
        `<soap:Body><GetStudentInfoByIdResponse xmlns="${NS}"><GetStudentInfoByIdResult>` +
          '<StudentRecId>\\d+</StudentRecId><StudentId>3</StudentId><NameAr>[^<]+</NameAr><NameEn>[^<]+</NameEn>' +
          '<Gender>[MF]</Gender><BirthDate>\\d{4}-\\d\\d-\\d\\d</BirthDate>',
      ),
    );
  });

  test('an unknown identifier is the empty response', async () => {
    expect((await studentById(typed, '999999')).text).toContain(
      `<soap:Body><GetStudentInfoByIdResponse xmlns="${NS}" /></soap:Body>`,
    );
  });

  test('an empty list is an empty result element', async () => {
    const response = await soap11(
      `${typed.url}/GetStudnetsMarks2.asmx`,
      `<GetStudentsMarks2 xmlns="${NS}"><StudnetID>1</StudnetID><SubjectID>999</SubjectID></GetStudentsMarks2>`,
      `"${NS}GetStudentsMarks2"`,
    );
    expect(response.text).toContain(
      `<GetStudentsMarks2Response xmlns="${NS}"><GetStudentsMarks2Result /></GetStudentsMarks2Response>`,
    );
  });

  test('a null nillable int is xsi:nil and a null optional string is left out', async () => {
    const response = await soap11(
      `${typed.url}/GetStudentsAudit.asmx`,
      `<GetAllAuditsByClassId xmlns="${NS}"><classId>1</classId></GetAllAuditsByClassId>`,
      `"${NS}GetAllAuditsByClassId"`,
    );
    expect(response.text).toMatch(
      /<Kind>lateness<\/Kind><AbsenceTypeId xsi:nil="true" \/><MinutesLate>\d+<\/MinutesLate>/,
    );
    expect(response.text).toMatch(
      new RegExp(
        '<Kind>absence<\\/Kind><AbsenceTypeId>\\d<\\/AbsenceTypeId><AbsenceTypeNameAr>[^<]+<\\/AbsenceTypeNameAr>' +
          '<AbsenceTypeNameEn>[^<]+<\\/AbsenceTypeNameEn><MinutesLate xsi:nil="true" \\/>' +
          '(<Note>[^<]*<\\/Note>)?<\\/AttendanceRecord>',
      ),
    );
  });

  test('the documented profile keeps answering the empty response, data or not', async () => {
    expect((await studentById(documented, '3')).text).toContain(
      `<soap:Body><GetStudentInfoByIdResponse xmlns="${NS}" /></soap:Body>`,
    );
    const hello = await get(`${documented.url}/GetNoteType.asmx/GetStudentsNoteType`);
    expect([hello.status, hello.text]).toEqual([200, '']);
  });
});

describe('a result of a value type', () => {
  test('is required in the typed WSDL and carried, 0 included, on SOAP, HTTP and JSON', async () => {
    const wsdl = (await get(`${typed.url}/NotificationNotes.asmx?WSDL`)).text;
    expect(wsdl).toContain('<s:element minOccurs="1" maxOccurs="1" name="SendMarkNotesResult" type="s:int" />');
    // A reference type stays optional.
    expect(wsdl).toContain('<s:element minOccurs="0" maxOccurs="1" name="GetNameAbsenceTypeResult" type="s:string" />');
    const fields = { id: '999999', id_class: '999999', baseUrlSchool: typed.url };
    const soap = await soap11(
      `${typed.url}/NotificationNotes.asmx`,
      `<SendMarkNotes xmlns="${NS}">${Object.entries(fields)
        .map(([name, value]) => `<${name}>${value}</${name}>`)
        .join('')}</SendMarkNotes>`,
      `"${NS}SendMarkNotes"`,
    );
    expect(soap.text).toContain(
      `<SendMarkNotesResponse xmlns="${NS}"><SendMarkNotesResult>0</SendMarkNotesResult></SendMarkNotesResponse>`,
    );
    const http = await get(`${typed.url}/NotificationNotes.asmx/SendMarkNotes?${new URLSearchParams(fields)}`);
    expect(http.text).toBe(`<?xml version="1.0" encoding="utf-8"?>\r\n<int xmlns="${NS}">0</int>`);
    const json = await post(
      `${typed.url}/NotificationNotes.asmx/SendMarkNotes`,
      { 'Content-Type': 'application/json; charset=utf-8' },
      JSON.stringify(fields),
    );
    expect(JSON.parse(json.text)).toEqual({ d: 0 });
  });
});

describe('typed HTTP GET/POST documents', () => {
  test('a list is an indented ASMX document', async () => {
    const response = await get(`${typed.url}/GetNoteType.asmx/GetStudentsNoteType`);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(
      response.text.startsWith(
        '<?xml version="1.0" encoding="utf-8"?>\r\n' +
          '<ArrayOfNoteType xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
          `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${NS}">\r\n` +
          '  <NoteType>\r\n    <NoteTypeId>1</NoteTypeId>\r\n    <NameAr>مشاركة متميزة</NameAr>\r\n' +
          '    <NameEn>Excellent participation</NameEn>\r\n    <IsPositive>true</IsPositive>\r\n  </NoteType>\r\n',
      ),
    ).toBe(true);
    expect(response.text.endsWith('  </NoteType>\r\n</ArrayOfNoteType>')).toBe(true);
  });

  test('an unknown identifier is a nil document', async () => {
    const response = await post(
      `${typed.url}/GetStudentsInformation.asmx/GetStudentInfoByRecId`,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'StudentRecId=0',
    );
    expect(response.text).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\r\n' +
        '<StudentInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
        `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xsi:nil="true" xmlns="${NS}" />`,
    );
  });
});

describe('the JSON binding', () => {
  const json = (service: RunningService, path: string, body: string) =>
    post(`${service.url}${path}`, { 'Content-Type': 'application/json; charset=utf-8' }, body);

  test('answers {"d": result} in either profile', async () => {
    for (const service of [typed, documented]) {
      const response = await json(service, '/GetNoteType.asmx/GetStudentsNoteType', '{}');
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
      expect(JSON.parse(response.text).d[0]).toEqual({
        NoteTypeId: 1,
        NameAr: 'مشاركة متميزة',
        NameEn: 'Excellent participation',
        IsPositive: true,
      });
    }
  });

  test('takes parameters as strings or numbers, and answers null for an unknown identifier', async () => {
    const asString = JSON.parse(
      (await json(typed, '/GetStudentsInformation.asmx/GetStudentInfoById', '{"StudentId":"3"}')).text,
    );
    const asNumber = JSON.parse(
      (await json(typed, '/GetStudentsInformation.asmx/GetStudentInfoById', '{"StudentId":3}')).text,
    );
    expect(asNumber).toEqual(asString);
    expect(asString.d.StudentId).toBe(3);
    expect(
      JSON.parse((await json(typed, '/GetStudentsInformation.asmx/GetStudentInfoById', '{"StudentId":"999999"}')).text),
    ).toEqual({ d: null });
  });

  test.each([
    [
      'a missing parameter',
      '/GetStudentsInformation.asmx/GetStudentInfoById',
      '{}',
      "Invalid web service call, missing value for parameter: 'StudentId'.",
      'System.InvalidOperationException',
    ],
    [
      'malformed JSON',
      '/GetStudentsInformation.asmx/GetStudentInfoById',
      '{"StudentId":',
      'Invalid JSON: the body must be a JSON object of parameters.',
      'System.ArgumentException',
    ],
    [
      'a JSON array',
      '/GetStudentsInformation.asmx/GetStudentInfoById',
      '[1]',
      'Invalid JSON: the body must be a JSON object of parameters.',
      'System.ArgumentException',
    ],
    [
      'a bad int',
      '/GenerateStudentReport.asmx/GenerateReport',
      '{"studentId":"abc","studentClass":"1"}',
      'abc is not a valid value for Int32.',
      'System.FormatException',
    ],
    [
      'an object for a string',
      '/GetStudentsInformation.asmx/GetStudentInfoById',
      '{"StudentId":{"x":1}}',
      "Cannot convert the value of parameter 'StudentId' to System.String.",
      'System.InvalidOperationException',
    ],
  ])(
    '%s is a 500 JSON error with Message and ExceptionType, no stack trace',
    async (_name, path, body, message, exceptionType) => {
      const response = await json(typed, path, body);
      expect([response.status, response.headers.get('content-type')]).toEqual([500, 'application/json; charset=utf-8']);
      expect(JSON.parse(response.text)).toEqual({ Message: message, ExceptionType: exceptionType });
    },
  );
});

describe('descriptions per profile', () => {
  test('the typed profile serves the typed WSDL; the documented one the spec WSDL', async () => {
    const typedWsdl = (await get(`${typed.url}/GetStudnetsMarks2.asmx?WSDL`)).text;
    const documentedWsdl = (await get(`${documented.url}/GetStudnetsMarks2.asmx?WSDL`)).text;
    expect(typedWsdl).toContain(
      '<s:element minOccurs="0" maxOccurs="1" name="GetStudentsMarks2Result" type="tns:ArrayOfMark" />',
    );
    expect(typedWsdl).toContain('<s:complexType name="Mark">');
    expect(documentedWsdl).not.toContain('Result');
    expect(documentedWsdl).toContain(`<s:element name="GetStudentsMarks2Response">\r\n        <s:complexType />`);
  });

  test('typed result elements of reference types are optional; of value types required, as .NET declares them', () => {
    const directory = join(WSDL_DIRECTORY, 'typed');
    for (const file of readdirSync(directory)) {
      const text = readFileSync(join(directory, file), 'utf8');
      const results = [...text.matchAll(/<s:element ([^>]*)name="\w+Result" type="([^"]+)"/g)];
      expect(results.length).toBeGreaterThan(0);
      for (const [, attributes, type] of results) {
        expect(attributes).toContain(type === 's:int' ? 'minOccurs="1"' : 'minOccurs="0"');
      }
    }
  });

  test('the typed operation page shows the result structure in its samples', async () => {
    const page = (await get(`${typed.url}/GetStudnetsMarks2.asmx?op=GetStudentsMarks2`)).text;
    expect(page).toContain('&lt;GetStudentsMarks2Result&gt;');
    expect(page).toContain('&lt;Score&gt;<font class=value>double</font>&lt;/Score&gt;');
  });
});

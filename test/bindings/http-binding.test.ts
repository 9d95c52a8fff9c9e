import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { get, NS, post } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ SCHOOL_BASE_URL: 'http://school' });
});
afterAll(() => service.close());

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('HTTP GET and POST success', () => {
  test('HelloWorld over GET is the <string> document', async () => {
    const response = await get(`${service.url}/GetStudentsNote.asmx/HelloWorld`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(response.text).toBe(`<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="${NS}">Hello World</string>`);
  });

  test('HelloWorld over POST with an empty form body', async () => {
    const response = await post(`${service.url}/GetStudentsNote.asmx/HelloWorld`, FORM, '');
    expect([response.status, response.text.endsWith('>Hello World</string>')]).toEqual([200, true]);
  });

  test('a void operation over GET is a bare 200 with Content-Length 0', async () => {
    const response = await get(`${service.url}/AuthCodeSending.asmx/AuthCode?code=1234&phone=0500000000`);
    expect([response.status, response.headers.get('content-length'), response.text]).toEqual([200, '0', '']);
  });

  test('a void operation over POST, extra fields ignored', async () => {
    const response = await post(
      `${service.url}/GenerateStudentReport.asmx/GenerateReport`,
      FORM,
      'studentId=12&studentClass=A1&extra=1',
    );
    expect([response.status, response.headers.get('content-length'), response.text]).toEqual([200, '0', '']);
  });

  test('operations that share an endpoint are told apart by the path', async () => {
    const first = await get(
      `${service.url}/NotificationNotes.asmx/GetNameAbsenceType?id=1&baseUrlSchool=http://school`,
    );
    const second = await get(
      `${service.url}/NotificationNotes.asmx/SendMarkNotes?id=1&id_class=2&baseUrlSchool=http://school`,
    );
    expect([first.status, second.status]).toEqual([200, 200]);
  });
});

describe('HTTP GET and POST errors, as ASMX writes them', () => {
  const expectPlainError = (response: { status: number; headers: Headers; text: string }, text: string) => {
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
      500,
      'text/plain; charset=utf-8',
      `${text}\r\n`,
    ]);
  };

  test('the first missing parameter, in parameter order', async () => {
    expectPlainError(await get(`${service.url}/AuthCodeSending.asmx/AuthCode`), 'Missing parameter: code.');
    expectPlainError(await get(`${service.url}/AuthCodeSending.asmx/AuthCode?code=1`), 'Missing parameter: phone.');
    expectPlainError(
      await post(`${service.url}/AuthCodeSending.asmx/AuthCode`, FORM, 'phone=1'),
      'Missing parameter: code.',
    );
  });

  test('parameter names match in any letter case, as ASP.NET reads them', async () => {
    const upper = await get(`${service.url}/AuthCodeSending.asmx/AuthCode?CODE=1234&PHONE=0500000002`);
    const form = await post(`${service.url}/AuthCodeSending.asmx/AuthCode`, FORM, 'Code=1234&Phone=0500000003');
    expect([upper.status, upper.text, form.status, form.text]).toEqual([200, '', 200, '']);
    // The same name in two cases is one field, its values joined by a comma, and then not an int.
    expectPlainError(
      await get(`${service.url}/GenerateStudentReport.asmx/GenerateReport?studentId=1&STUDENTID=2&studentClass=A1`),
      'Cannot convert 1,2 to System.Int32.\r\nParameter name: type ---> Input string was not in a correct format.',
    );
  });

  test('a bad int', async () => {
    expectPlainError(
      await get(`${service.url}/GenerateStudentReport.asmx/GenerateReport?studentId=abc&studentClass=A1`),
      'Cannot convert abc to System.Int32.\r\nParameter name: type ---> Input string was not in a correct format.',
    );
  });

  test('an unknown operation', async () => {
    expectPlainError(
      await get(`${service.url}/AuthCodeSending.asmx/Nope`),
      'Nope Web Service method name is not valid.',
    );
  });

  test('an operation name in the wrong case', async () => {
    expectPlainError(
      await get(`${service.url}/AuthCodeSending.asmx/authcode?code=1&phone=2`),
      'Invalid method name &#39;authcode&#39;,  method names are case sensitive.   ' +
        'The method name &#39;AuthCode&#39; with the same name but different casing was found.\r\n' +
        'Parameter name: methodName',
    );
  });

  test('a POST with another content type', async () => {
    expectPlainError(
      await post(`${service.url}/AuthCodeSending.asmx/AuthCode`, { 'Content-Type': 'text/xml; charset=utf-8' }, '<x/>'),
      'Request format is invalid: text/xml; charset=utf-8.',
    );
  });
});

describe('text on the HTTP bindings', () => {
  test('UTF-8 form fields and percent-encoded query fields reach the operation', async () => {
    // Operations are void in this profile; what is observable is that the request is accepted.
    const query = await get(
      `${service.url}/GetTeacherSubjects.asmx/GetTeacherSubjectsByID?Tid=${encodeURIComponent('محمد')}` +
        `&TClassid=${encodeURIComponent('أ 1')}`,
    );
    const form = await post(
      `${service.url}/GetTeacherSubjects.asmx/GetTeacherSubjectsByID`,
      FORM,
      `Tid=${encodeURIComponent('محمد')}&TClassid=1`,
    );
    expect([query.status, form.status]).toEqual([200, 200]);
  });

  test('unknown paths are 404 and other methods 405', async () => {
    expect((await get(`${service.url}/Nope.asmx`)).status).toBe(404);
    const response = await fetch(`${service.url}/GetStudentsNote.asmx/HelloWorld`, { method: 'DELETE' });
    // HEAD is refused too (405), as ASMX has no protocol for it.
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });
});

import type { RunningService } from '../../src/service';
import { bodyOf, rawRequest, statusOf } from '../support/raw-http';
import { startTestService } from '../support/service';
import { envelope11, envelope12, NS, post, soap11, soap12 } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const infoPath = () => `${service.url}/GetStudentsInformation.asmx`;
const HELLO = `<HelloWorld xmlns="${NS}" />`;
const helloPath = () => `${service.url}/GetStudentsNote.asmx`;
const helloAnswered = (text: string) => text.includes('<HelloWorldResult>Hello World</HelloWorldResult>');

describe('SOAP 1.1 dispatch', () => {
  test('the SOAPAction header picks the operation on a shared endpoint', async () => {
    const response = await soap11(
      infoPath(),
      `<GetStudentInfoById xmlns="${NS}"><StudentId>1</StudentId></GetStudentInfoById>`,
      `"${NS}GetStudentInfoById"`,
    );
    expect(response.text).toContain(`<GetStudentInfoByIdResponse xmlns="${NS}" />`);
  });

  test('SOAPAction wins over the Body element (ASMX reads the body as the action says)', async () => {
    const response = await soap11(infoPath(), `<GetStudentInfoById xmlns="${NS}" />`, `"${NS}GetStudentInfoByRecId"`);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<GetStudentInfoByRecIdResponse xmlns="${NS}" />`);
  });

  test('without the header the Body element picks the operation', async () => {
    const response = await soap11(infoPath(), `<GetStudentInfoByRecId xmlns="${NS}" />`);
    expect(response.text).toContain(`<GetStudentInfoByRecIdResponse xmlns="${NS}" />`);
  });

  test('an unquoted SOAPAction works', async () => {
    const response = await soap11(helloPath(), HELLO, `${NS}HelloWorld`);
    expect(helloAnswered(response.text)).toBe(true);
  });

  test.each([
    [`"${NS}Nope"`, `${NS}Nope`],
    ['""', ''],
    ['', ''],
  ])('an unknown or empty SOAPAction %s is a Client fault naming it', async (header, shown) => {
    const response = await soap11(helloPath(), HELLO, header);
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<faultcode>soap:Client</faultcode>' +
        `<faultstring>Server did not recognize the value of HTTP Header SOAPAction: ${shown}.</faultstring>` +
        '<detail /></soap:Fault>',
    );
  });

  test('no header and an unknown Body element is the same fault with an empty value', async () => {
    const response = await soap11(helloPath(), `<Nope xmlns="${NS}" />`);
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<faultstring>Server did not recognize the value of HTTP Header SOAPAction: .</faultstring>',
    );
  });
});

describe('SOAP 1.2 dispatch', () => {
  test('the action parameter picks the operation, quoted or not', async () => {
    for (const contentType of [
      `application/soap+xml; charset=utf-8; action="${NS}GetStudentInfoById"`,
      `application/soap+xml;charset=utf-8;action=${NS}GetStudentInfoById`,
    ]) {
      const response = await post(
        infoPath(),
        { 'Content-Type': contentType },
        envelope12(`<GetStudentInfoById xmlns="${NS}" />`),
      );
      expect(response.text).toContain(`<GetStudentInfoByIdResponse xmlns="${NS}" />`);
    }
  });

  test('without an action the Body element picks the operation', async () => {
    const response = await soap12(infoPath(), `<GetStudentInfoById xmlns="${NS}" />`);
    expect(response.text).toContain(`<GetStudentInfoByIdResponse xmlns="${NS}" />`);
  });

  test('a wrong action with a known Body element still works', async () => {
    const response = await soap12(helloPath(), HELLO, `${NS}Nope`);
    expect(response.status).toBe(200);
    expect(helloAnswered(response.text)).toBe(true);
  });

  test('a SOAPAction header on a SOAP 1.2 request does no harm', async () => {
    const response = await post(
      helloPath(),
      { 'Content-Type': 'application/soap+xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
      envelope12(HELLO),
    );
    expect(helloAnswered(response.text)).toBe(true);
  });

  test('no action and an unknown element is a Sender fault asking for an action', async () => {
    const response = await soap12(helloPath(), `<Nope xmlns="${NS}" />`);
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">' +
        'Unable to handle request without a valid action parameter. Please supply a valid soap action.</soap:Text>' +
        '</soap:Reason><soap:Detail /></soap:Fault>',
    );
  });

  test('a wrong action and an unknown element names the action', async () => {
    const response = await soap12(helloPath(), `<Nope xmlns="${NS}" />`, 'urn:wrong');
    expect(response.text).toContain(
      '<soap:Text xml:lang="en">Unable to handle request. The action \'urn:wrong\' was not recognized.</soap:Text>',
    );
  });
});

describe('client variations seen in the field', () => {
  test('a UTF-8 byte order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(envelope11(HELLO))]);
    const response = await post(
      helloPath(),
      { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
      body,
    );
    expect(helloAnswered(response.text)).toBe(true);
  });

  test.each(['text/xml;charset=utf-8', 'text/xml; charset="utf-8"', 'text/xml', 'TEXT/XML; Charset=UTF-8'])(
    'Content-Type %s',
    async (contentType) => {
      const response = await post(
        helloPath(),
        { 'Content-Type': contentType, SOAPAction: `"${NS}HelloWorld"` },
        envelope11(HELLO),
      );
      expect(helloAnswered(response.text)).toBe(true);
    },
  );

  test('xsi:type attributes on parameter elements', async () => {
    const body =
      `<GenerateReport xmlns="${NS}"><studentId xsi:type="xsd:int">12</studentId>` +
      '<studentClass xsi:type="xsd:string">A1</studentClass></GenerateReport>';
    const response = await soap11(`${service.url}/GenerateStudentReport.asmx`, body, `"${NS}GenerateReport"`);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<GenerateReportResponse xmlns="${NS}" />`);
  });

  test('prefixed operation elements and a SOAP Header', async () => {
    const text =
      '<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">' +
      '<s:Header><x:Trace xmlns:x="urn:trace">1</x:Trace></s:Header>' +
      `<s:Body><t:HelloWorld xmlns:t="${NS}"/></s:Body></s:Envelope>`;
    const response = await post(helloPath(), { 'Content-Type': 'text/xml; charset=utf-8' }, text);
    expect(helloAnswered(response.text)).toBe(true);
  });

  test.each([
    ['HTTP/1.0 without keep-alive', ''],
    ['HTTP/1.0 with keep-alive', 'Connection: keep-alive\r\n'],
  ])('%s', async (_name, connectionHeader) => {
    const body = envelope11(HELLO);
    const request =
      `POST /GetStudentsNote.asmx HTTP/1.0\r\nHost: localhost\r\n${connectionHeader}` +
      `Content-Type: text/xml; charset=utf-8\r\nSOAPAction: "${NS}HelloWorld"\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    // With keep-alive the server holds the connection open; the short timeout ends the read.
    const raw = await rawRequest(service.url, request, connectionHeader ? 1000 : 5000);
    expect(statusOf(raw)).toBe(200);
    expect(helloAnswered(bodyOf(raw))).toBe(true);
  });
});

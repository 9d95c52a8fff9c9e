import type { RunningService } from '../../src/service';
import { rawRequest } from '../support/raw-http';
import { startTestService } from '../support/service';
import { get, NS } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('service descriptions', () => {
  test.each(['WSDL', 'wsdl', 'Wsdl'])("?%s serves the endpoint WSDL with the caller's address", async (key) => {
    const response = await get(`${service.url}/NotificationNotes.asmx?${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(response.text.startsWith('<?xml version="1.0" encoding="utf-8"?>\r\n<wsdl:definitions ')).toBe(true);
    const addresses = [...response.text.matchAll(/:address location="([^"]+)"/g)].map((match) => match[1]);
    expect(addresses).toEqual(Array(4).fill(`${service.url}/NotificationNotes.asmx`));
    expect(response.text).toContain(`soapAction="${NS}SendMarkNotes"`);
  });

  const wsdlWithHost = (host: string) =>
    rawRequest(service.url, `GET /Scheduals.asmx?wsdl HTTP/1.0\r\nHost: ${host}\r\n\r\n`);

  test('addresses follow the Host header the caller used', async () => {
    expect(await wsdlWithHost('school.example:8443')).toContain(
      '<soap12:address location="http://school.example:8443/Scheduals.asmx" />',
    );
  });

  test('a Host header that is not a host is not echoed', async () => {
    const text = await wsdlWithHost('evil"><x');
    expect(text).not.toContain('evil');
    expect(text).toContain('location="http://localhost:0/Scheduals.asmx"');
  });

  test('?disco lists the contract and both SOAP bindings', async () => {
    const response = await get(`${service.url}/GetNoteType.asmx?disco`);
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(response.text).toContain(
      `<contractRef ref="${service.url}/GetNoteType.asmx?wsdl" docRef="${service.url}/GetNoteType.asmx" ` +
        'xmlns="http://schemas.xmlsoap.org/disco/scl/" />',
    );
    expect(response.text).toContain(`xmlns:q1="${NS}" binding="q1:GetNoteTypeSoap"`);
    expect(response.text).toContain(`xmlns:q2="${NS}" binding="q2:GetNoteTypeSoap12"`);
  });
});

describe('PUBLIC_BASE_URL and SERVICE_NAMESPACE', () => {
  let configured: RunningService;
  beforeAll(async () => {
    configured = await startTestService({
      PUBLIC_BASE_URL: 'https://school.example/services/',
      SERVICE_NAMESPACE: 'urn:school',
    });
  });
  afterAll(() => configured.close());

  test('WSDL addresses name the public URL and the namespace is replaced throughout', async () => {
    const text = (await get(`${configured.url}/GetStudentsNote.asmx?WSDL`)).text;
    expect(text).toContain('<soap:address location="https://school.example/services/GetStudentsNote.asmx" />');
    expect(text).toContain('targetNamespace="urn:school"');
    expect(text).toContain('soapAction="urn:schoolHelloWorld"');
    expect(text).not.toContain('tempuri');
  });

  test('the help page drops the tempuri.org note and the test form posts to the public URL', async () => {
    expect((await get(`${configured.url}/GetStudentsNote.asmx`)).text).not.toContain('tempuri.org');
    expect((await get(`${configured.url}/GetStudentsNote.asmx?op=HelloWorld`)).text).toContain(
      'action="https://school.example/services/GetStudentsNote.asmx/HelloWorld"',
    );
  });
});

describe('help pages', () => {
  test('the service page lists its operations and links the service description', async () => {
    const response = await get(`${service.url}/GetStudentsInformation.asmx`);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<title>GetStudentsInformation Web Service</title>');
    expect(response.text).toContain(
      '<a href="GetStudentsInformation.asmx?op=GetStudentInfoByRecId">GetStudentInfoByRecId</a>',
    );
    expect(response.text).toContain(
      '<a href="GetStudentsInformation.asmx?op=GetStudentInfoById">GetStudentInfoById</a>',
    );
    expect(response.text).toContain(`href="${service.url}/GetStudentsInformation.asmx?WSDL"`);
    expect(response.text).toContain('This web service is using http://tempuri.org/ as its default namespace.');
  });

  test('the operation page has the test form and the four sample blocks', async () => {
    const text = (await get(`${service.url}/GenerateStudentReport.asmx?op=GenerateReport`)).text;
    expect(text).toContain('<h2>GenerateReport</h2>');
    expect(text).toContain('<a href="GenerateStudentReport.asmx">here</a> for a complete list of operations');
    expect(text).toContain('<h3>Test</h3>');
    expect(text).toContain(
      `<form target="_blank" action="${service.url}/GenerateStudentReport.asmx/GenerateReport" method="POST">`,
    );
    expect(text).toContain('name="studentId"');
    expect(text).toContain('name="studentClass"');
    expect(text).toContain('<input type="submit" value="Invoke" class="button">');
    for (const title of ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST']) expect(text).toContain(`<h3>${title}</h3>`);
    expect(text).toContain(`SOAPAction: "${NS}GenerateReport"`);
    expect(text).toContain('&lt;studentId&gt;<font class=value>int</font>&lt;/studentId&gt;');
    expect(text).toContain(
      'GET /GenerateStudentReport.asmx/GenerateReport?studentId=<font class=value>string</font>' +
        '&amp;studentClass=<font class=value>string</font> HTTP/1.1',
    );
  });

  test('an unknown operation page says Method Not Found and escapes what it echoes', async () => {
    const text = (await get(`${service.url}/GetNoteType.asmx?op=${encodeURIComponent('<script>x</script>')}`)).text;
    expect(text).toContain('<h2>Method Not Found</h2>');
    expect(text).not.toContain('<script>');
    expect(text).toContain('&lt;script&gt;');
  });
});

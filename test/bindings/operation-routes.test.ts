import type { RunningService } from '../../src/service';
import { rawRequest } from '../support/raw-http';
import { startTestService } from '../support/service';
import { get, NS, post } from '../support/soap';

/**
 * Which binding answers a request to /X.asmx/Op: the server routes these calls itself (not through
 * Express), and each rule below is one it must keep.
 */
let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const HELLO = `<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="${NS}">Hello World</string>`;
const JSON_BODY = { 'Content-Type': 'application/json; charset=utf-8' };

test('a JSON body to an operation is answered by the JSON binding', async () => {
  const response = await post(`${service.url}/GetStudentsNote.asmx/HelloWorld`, JSON_BODY, '{}');
  expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
    200,
    'application/json; charset=utf-8',
    '{"d":"Hello World"}',
  ]);
  expect(response.headers.get('x-request-id')).toBeTruthy();
});

test('a JSON Content-Type on a GET is the HTTP GET binding: the query counts, not the header', async () => {
  const response = await fetch(`${service.url}/GetStudentsNote.asmx/HelloWorld`, { headers: JSON_BODY });
  expect([response.status, response.headers.get('content-type'), await response.text()]).toEqual([
    200,
    'text/xml; charset=utf-8',
    HELLO,
  ]);
});

test.each([
  ['an unknown method name', 'Nope', 'Nope Web Service method name is not valid.'],
  [
    'a method name in another letter case',
    'helloworld',
    'Invalid method name &#39;helloworld&#39;,  method names are case sensitive.   ' +
      'The method name &#39;HelloWorld&#39; with the same name but different casing was found.\r\n' +
      'Parameter name: methodName',
  ],
])('%s with a JSON body is answered in ASMX text by the HTTP binding', async (_, name, message) => {
  const response = await post(`${service.url}/GetStudentsNote.asmx/${name}`, JSON_BODY, '{}');
  expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
    500,
    'text/plain; charset=utf-8',
    `${message}\r\n`,
  ]);
  expect(response.headers.get('jsonerror')).toBeNull();
});

test('a percent-encoded method name is decoded; one that does not decode is an unknown name', async () => {
  const encoded = await get(`${service.url}/GetStudentsNote.asmx/Hello%57orld`);
  expect([encoded.status, encoded.text]).toEqual([200, HELLO]);
  const broken = await get(`${service.url}/GetStudentsNote.asmx/Hello%E0%A4%A`);
  expect([broken.status, broken.text]).toEqual([500, 'Hello%E0%A4%A Web Service method name is not valid.\r\n']);
});

test.each(['PUT', 'PATCH'])('%s to an operation is 405 with Allow, whatever its body', async (method) => {
  const response = await fetch(`${service.url}/GetStudentsNote.asmx/HelloWorld`, {
    method,
    headers: JSON_BODY,
    body: '{}',
  });
  expect([response.status, response.headers.get('allow'), response.headers.get('content-type')]).toEqual([
    405,
    'GET, POST',
    'text/html; charset=utf-8',
  ]);
  expect(await response.text()).toContain('Request format is unrecognized.');
});

test('the script proxy is refused on POST as on GET', async () => {
  const response = await post(`${service.url}/GetStudentsNote.asmx/js`, JSON_BODY, '{}');
  expect(response.status).toBe(500);
  expect(response.text).toContain('Only Web services with a [ScriptService] attribute');
});

test('an operation path under an endpoint that does not exist is the 404 page', async () => {
  const response = await post(`${service.url}/Nope.asmx/HelloWorld`, JSON_BODY, '{}');
  expect([response.status, response.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
  expect(response.text).toContain('<b> Requested URL: </b>/Nope.asmx/HelloWorld<br>');
});

test('calls of every binding follow one another on a keep-alive connection', async () => {
  const request = (method: string, path: string, headers: string, body = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const raw = await rawRequest(
    service.url,
    request('GET', '/GetStudentsNote.asmx/HelloWorld', '') +
      request('POST', '/GetStudentsNote.asmx/HelloWorld', 'Content-Type: application/x-www-form-urlencoded\r\n') +
      request('POST', '/GetStudentsNote.asmx/HelloWorld', 'Content-Type: application/json\r\n', '{}') +
      request('GET', '/GetStudentsNote.asmx?op=HelloWorld', 'Connection: close\r\n'),
  );
  const responses = splitResponses(raw);
  expect(responses.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
  expect(responses.slice(0, 3).map(({ body }) => body)).toEqual([HELLO, HELLO, '{"d":"Hello World"}']);
  expect(responses[3].body).toContain('<title>GetStudentsNote Web Service</title>');
});

/** The responses one after another on a connection, each cut at its Content-Length. */
function splitResponses(raw: string): Array<{ status: number; body: string }> {
  const bytes = Buffer.from(raw, 'utf8');
  const responses: Array<{ status: number; body: string }> = [];
  let offset = 0;
  while (offset < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    const head = bytes.subarray(offset, headEnd).toString('latin1');
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1]);
    const bodyStart = headEnd + 4;
    responses.push({
      status: Number(head.slice(9, 12)),
      body: bytes.subarray(bodyStart, bodyStart + length).toString('utf8'),
    });
    offset = bodyStart + length;
  }
  return responses;
}

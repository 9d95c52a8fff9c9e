import { gzipSync } from 'node:zlib';
import type { RunningService } from '../../src/service';
import { bodyOf, rawRequest, statusOf } from '../support/raw-http';
import { startTestService } from '../support/service';
import { envelope11, NS, post, soap11, SOAP11_ENV } from '../support/soap';

const LIMIT = 4096;
let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ MAX_BODY_BYTES: String(LIMIT) });
});
afterAll(() => service.close());

const XML_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}AuthCode"` };
const authPath = () => `${service.url}/AuthCodeSending.asmx`;

/** After every hostile request the process must still answer a normal call. */
afterEach(async () => {
  const response = await soap11(
    `${service.url}/GetStudentsNote.asmx`,
    `<HelloWorld xmlns="${NS}" />`,
    `"${NS}HelloWorld"`,
  );
  expect(response.status).toBe(200);
});

const expectNoLeak = (text: string) => {
  expect(text).not.toMatch(/ at |\.ts:|\.js:|node_modules|\/work\/|SELECT /);
};

describe('oversized bodies', () => {
  test('a declared Content-Length over the limit is refused before the body is sent', async () => {
    const head =
      'POST /AuthCodeSending.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n' +
      `Content-Length: ${100 * 1024 * 1024}\r\n\r\n`;
    // Only the headers are written: the refusal must come without waiting for 100 MB.
    const raw = await rawRequest(service.url, head, 3000);
    expect(statusOf(raw)).toBe(413);
    expect(bodyOf(raw)).toContain(
      '<faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; ' +
        'Maximum request length exceeded: the body is larger than 4096 bytes.</faultstring>',
    );
  });

  test('a chunked body is cut off when it passes the limit', async () => {
    const chunk = 'x'.repeat(1000);
    let request =
      'POST /AuthCodeSending.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    for (let index = 0; index < 10; index += 1) request += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const raw = await rawRequest(service.url, request, 3000);
    expect(statusOf(raw)).toBe(413);
  });

  test('an oversized HTTP POST form is refused with a text/plain message', async () => {
    const response = await post(
      `${authPath()}/AuthCode`,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      `code=${'1'.repeat(LIMIT)}&phone=1`,
    );
    expect(response.status).toBe(413);
    expect(response.text).toBe(`Maximum request length exceeded: the body is larger than ${LIMIT} bytes.\r\n`);
  });
});

describe('compressed bodies', () => {
  test('a gzip body is refused, not inflated', async () => {
    // 1 MB of zeros compresses to about 1 KB: a small bomb under the size limit.
    const bomb = gzipSync(Buffer.alloc(1024 * 1024));
    const response = await post(authPath(), { ...XML_HEADERS, 'Content-Encoding': 'gzip' }, bomb);
    expect(response.status).toBe(415);
    expect(response.text).toContain('Content-Encoding gzip is not supported; send the request uncompressed.');
  });
});

describe('DTDs and entities', () => {
  test('billion laughs is refused without expansion', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">' +
      '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
      `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><AuthCode xmlns="${NS}"><code>&lol3;</code></AuthCode>` +
      '</soap:Body></soap:Envelope>';
    const response = await post(authPath(), XML_HEADERS, laughs);
    expect([response.status, response.text]).toEqual([400, '']);
  });

  test('an external entity (XXE) is refused and no file is read', async () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY file SYSTEM "file:///etc/passwd">]>' +
      `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><AuthCode xmlns="${NS}"><code>&file;</code></AuthCode>` +
      '</soap:Body></soap:Envelope>';
    const response = await post(authPath(), XML_HEADERS, xxe);
    expect(response.status).toBe(400);
    expect(response.text).not.toContain('root:');
  });
});

describe('structure', () => {
  test('deep nesting is refused with a Client fault', async () => {
    // 400 levels fit under the 4 KB limit of this test service; the bound is 32.
    const depth = 400;
    const nested = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    const response = await post(authPath(), XML_HEADERS, envelope11(`<AuthCode xmlns="${NS}">${nested}</AuthCode>`));
    expect(response.status).toBe(500);
    expect(response.text).toContain('The request nests elements more than 32 levels deep.');
  });

  test('bytes that are not UTF-8 are refused as unreadable', async () => {
    const body = Buffer.concat([
      Buffer.from(envelope11(`<AuthCode xmlns="${NS}"><code>`)),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('</code></AuthCode>'),
    ]);
    const response = await post(authPath(), XML_HEADERS, body);
    expect(response.status).toBe(400);
  });

  test('a request line with a huge header is refused by the HTTP layer', async () => {
    const raw = await rawRequest(
      service.url,
      `GET /GetStudentsNote.asmx HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
      3000,
    );
    expect(statusOf(raw)).toBe(431);
  });

  test('markup in parameters is data, echoed nowhere as markup, and faults leak no internals', async () => {
    const response = await post(
      `${service.url}/GenerateStudentReport.asmx`,
      { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GenerateReport"` },
      envelope11(`<GenerateReport xmlns="${NS}"><studentId>&lt;script&gt;</studentId></GenerateReport>`),
    );
    expect(response.status).toBe(500);
    expect(response.text).not.toContain('<script>');
    expectNoLeak(response.text);
  });
});

import { gzipSync } from 'node:zlib';
import { CLIENT_TIME_LIMITS, checkingIntervalFor } from '../../src/server/http-server';
import type { RunningService } from '../../src/service';
import { bodyOf, rawRequest, slowRequest, statusOf } from '../support/raw-http';
import { startTestService } from '../support/service';
import { envelope11, envelope12, NS, post, soap11, SOAP11_ENV } from '../support/soap';

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

/** A service with the default body limit, and client time limits short enough to wait for. */
let roomy: RunningService;
beforeAll(async () => {
  roomy = await startTestService({}, { clientTimeLimits: { headersMs: 300, requestMs: 600 } });
});
afterAll(() => roomy.close());

describe('parser limits', () => {
  const attributes = (count: number, name: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => ` ${name(index)}="x"`).join('');

  test('an element with 101 attributes is a Client fault; 100 are read', async () => {
    const element = (count: number) => `<AuthCode xmlns="${NS}"${attributes(count, (index) => `a${index}`)} />`;
    const refused = await post(authPath(), XML_HEADERS, envelope11(element(101)));
    expect(refused.status).toBe(500);
    expect(refused.text).toContain(
      '<faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; ' +
        'The request has an element with more than 100 attributes.</faultstring>',
    );
    const read = await post(authPath(), XML_HEADERS, envelope11(element(100)));
    expect(read.text).not.toContain('attributes');
  });

  test('an element with 101 namespace declarations is a Client fault, in SOAP 1.2 as a Sender fault', async () => {
    const element = `<AuthCode xmlns="${NS}"${attributes(101, (index) => `xmlns:n${index}`)} />`;
    const response = await post(
      authPath(),
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      envelope12(element),
    );
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">' +
        'Server was unable to read request. ---&gt; ' +
        'The request has an element with more than 100 namespaces declared.</soap:Text>',
    );
  });

  const json = (body: string, url = service.url) =>
    post(`${url}/AuthCodeSending.asmx/AuthCode`, { 'Content-Type': 'application/json; charset=utf-8' }, body);

  test('JSON nested 33 levels is refused before it is parsed; 32 levels are parsed', async () => {
    const nested = (levels: number) => `{"code":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)},"phone":"1"}`;
    const refused = await json(nested(33));
    expect([refused.status, refused.headers.get('jsonerror'), JSON.parse(refused.text)]).toEqual([
      500,
      'true',
      {
        Message: 'Invalid JSON: objects and arrays nest more than 32 levels deep.',
        ExceptionType: 'System.ArgumentException',
      },
    ]);
    // Parsed, and then refused for what it is: an array where a string belongs.
    expect(JSON.parse((await json(nested(32))).text).Message).toBe(
      "Cannot convert the value of parameter 'code' to System.String.",
    );
  });

  test('a JSON body of 1,001 keys is refused; brackets and colons inside strings do not count', async () => {
    const properties = (count: number) => Array.from({ length: count }, (_, index) => `"p${index}":1`).join(',');
    // Over the 4 KB body limit of the first service.
    const refused = await json(`{${properties(1001)}}`, roomy.url);
    expect(JSON.parse(refused.text)).toEqual({
      Message: 'Invalid JSON: the body has more than 1000 keys.',
      ExceptionType: 'System.ArgumentException',
    });
    // 1,000 properties, the strings full of brackets, colons and an escaped quote: parsed, and
    // refused for the length of its code.
    const inStrings = await json(
      `{"code":"${'[{:'.repeat(40)}\\":x","phone":"${':'.repeat(1200)}",${properties(998)}}`,
      roomy.url,
    );
    expect(JSON.parse(inStrings.text).Message).toBe('code must be at most 16 characters long.');
  });
});

describe('slow clients', () => {
  test('the documented limits are 20 s for headers and 30 s for the whole request, checked every second', () => {
    expect(CLIENT_TIME_LIMITS).toEqual({ headersMs: 20_000, requestMs: 30_000 });
    expect(checkingIntervalFor(CLIENT_TIME_LIMITS)).toBe(1_000);
  });

  test('a client that sends its headers too slowly is cut off with 408', async () => {
    const raw = await slowRequest(
      roomy.url,
      'GET /GetStudentsNote.asmx HTTP/1.1\r\nHost: localhost\r\n',
      'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      50,
    );
    expect(statusOf(raw)).toBe(408);
  });

  test('a client that sends its body too slowly is cut off', async () => {
    const body = envelope11(`<HelloWorld xmlns="${NS}" />`);
    const raw = await slowRequest(
      roomy.url,
      'POST /GetStudentsNote.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      body,
      50,
    );
    expect(statusOf(raw)).toBe(408);
  });
});

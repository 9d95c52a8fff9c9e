import type { RunningService } from '../../src/service';
import { basic, type SchoolWithCallers, startSchoolWithCallers } from '../support/callers';
import { bodyOf, rawRequest, statusOf } from '../support/raw-http';
import { REMOTE_ADDRESS, remoteFetch } from '../support/remote-client';
import { envelope11, envelope12, NS, post } from '../support/soap';

/**
 * The budgets of a whole request, whatever its shape, sent as the probe sent its floods: from
 * another address without credentials. Each is refused in its binding's shape; a caller that can
 * be refused from its headers is refused before its body is even sent.
 */

let school: SchoolWithCallers;
let service: RunningService;
let secret: string;
beforeAll(async () => {
  school = await startSchoolWithCallers([{ name: 'sis', secret: true }]);
  service = school.service;
  secret = school.secrets.sis;
});
afterAll(() => school.close());

const HELLO = '/GetStudentsNote.asmx';
const SOAP11_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` };
const SOAP12_HEADERS = { 'Content-Type': 'application/soap+xml; charset=utf-8' };
const UNREAD = 'Server was unable to read request. ---&gt; ';

const remotePost = (path: string, headers: Record<string, string>, body: string) =>
  remoteFetch(`${service.url}${path}`, { method: 'POST', headers, body });

/** HelloWorld with `extra` inside its element: anyone may call it, so only the budgets stop it. */
const helloWith = (extra: string) => `<HelloWorld xmlns="${NS}">${extra}</HelloWorld>`;
const elements = (count: number, attributes: (index: number) => string) =>
  Array.from({ length: count }, (_, element) => {
    const list = Array.from({ length: 99 }, (_, index) => ` ${attributes(index)}`).join('');
    return `<e${element % 10}${list}/>`;
  }).join('');

describe('XML budgets of the whole document, on SOAP 1.1 and 1.2', () => {
  test.each([
    ['1,300 elements of 99 attributes', elements(1300, (index) => `a${index}=""`), 'more than 1000 attributes.'],
    [
      '520 elements of 99 namespace declarations',
      elements(520, (index) => `xmlns:n${index}="u"`),
      'more than 200 namespaces declared.',
    ],
    ['1,001 elements', '<e/>'.repeat(1001), 'more than 1000 elements.'],
    ['262,145 characters of text', `<e>${'x'.repeat(262_145)}</e>`, 'more than 262144 characters of text.'],
    [
      'text with a reference, read by saxes',
      `<e>&amp;${'x'.repeat(262_144)}</e>`,
      'more than 262144 characters of text.',
    ],
    ['elements with a comment, read by saxes', `<!-- -->${'<e/>'.repeat(1001)}`, 'more than 1000 elements.'],
  ])('%s from an address without credentials: a Client fault', async (_name, extra, reason) => {
    const soap11 = await remotePost(HELLO, SOAP11_HEADERS, envelope11(helloWith(extra)));
    expect(soap11.status).toBe(500);
    expect(soap11.text).toContain(`<faultcode>soap:Client</faultcode><faultstring>${UNREAD}The request has ${reason}`);
    const soap12 = await remotePost(HELLO, SOAP12_HEADERS, envelope12(helloWith(extra)));
    expect(soap12.status).toBe(500);
    expect(soap12.text).toContain('<soap:Value>soap:Sender</soap:Value>');
    expect(soap12.text).toContain(`${UNREAD}The request has ${reason}`);
  });

  test('a request within every budget is answered', async () => {
    const within = `${elements(10, (index) => `a${index}=""`)}${'<e/>'.repeat(900)}<e>${'x'.repeat(200_000)}</e>`;
    const response = await remotePost(HELLO, SOAP11_HEADERS, envelope11(helloWith(within)));
    expect(response.status).toBe(200);
    expect(response.text).toContain('Hello World');
  });
});

describe('form budgets, on HTTP POST and GET', () => {
  const TOO_MANY =
    'Operation is not valid due to the current state of the object. The request has more than 1000 fields.\r\n';

  test('a form of 150,000 fields is refused as ASP.NET refuses too many keys', async () => {
    const form = 'a&'.repeat(150_000);
    const response = await remotePost(
      `${HELLO}/HelloWorld`,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      form,
    );
    expect([response.status, response.text]).toEqual([500, TOO_MANY]);
  });

  test('a query of 1,001 fields is refused; 1,000 are read', async () => {
    const refused = await remoteFetch(`${service.url}${HELLO}/HelloWorld?${'a=1&'.repeat(1001)}`);
    expect([refused.status, refused.text]).toEqual([500, TOO_MANY]);
    const read = await remoteFetch(`${service.url}${HELLO}/HelloWorld?${'a=1&'.repeat(1000)}`);
    expect(read.status).toBe(200);
  });

  test('a form longer than 524,288 characters is refused with 413', async () => {
    const response = await remotePost(
      `${HELLO}/HelloWorld`,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      `a=${'1'.repeat(524_287)}`,
    );
    expect([response.status, response.text]).toEqual([
      413,
      'Maximum request length exceeded: the fields are longer than 524288 characters.\r\n',
    ]);
  });
});

describe('JSON budgets of the whole body', () => {
  const json = (body: string) =>
    remotePost(`${HELLO}/HelloWorld`, { 'Content-Type': 'application/json; charset=utf-8' }, body);

  test('1,001 keys spread over many small objects are refused', async () => {
    const objects = Array.from({ length: 1001 }, (_, index) => `{"k${index}":1}`).join(',');
    const response = await json(`{"x":[${objects}]}`);
    expect([response.status, JSON.parse(response.text)]).toEqual([
      500,
      { Message: 'Invalid JSON: the body has more than 1000 keys.', ExceptionType: 'System.ArgumentException' },
    ]);
  });

  test('1,001 array items are refused; 999 (with the one key) are parsed', async () => {
    const items = (count: number) => `{"x":[${Array.from({ length: count }, () => '1').join(',')}]}`;
    const refused = await json(items(1001));
    expect(JSON.parse(refused.text).Message).toBe('Invalid JSON: the body has more than 1000 array items.');
    const read = await json(items(1000));
    expect([read.status, JSON.parse(read.text)]).toEqual([200, { d: 'Hello World' }]);
  });
});

describe('callers decided before the body', () => {
  /** The headers of a request whose body is never sent: an answer proves that none was read. */
  const headersOnly = (path: string, headers: Record<string, string>) =>
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}Content-Length: 900000\r\n\r\n`;

  test.each([
    ['SOAP 1.1', HELLO, SOAP11_HEADERS],
    ['SOAP 1.2', HELLO, SOAP12_HEADERS],
    ['HTTP POST', `${HELLO}/HelloWorld`, { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['JSON', `${HELLO}/HelloWorld`, { 'Content-Type': 'application/json' }],
  ])('a wrong Basic secret on %s is refused with 401 before the body is sent', async (_name, path, headers) => {
    const raw = await rawRequest(
      service.url,
      headersOnly(path, { ...headers, Authorization: basic('sis', 'wrong') }),
      5000,
      REMOTE_ADDRESS,
    );
    expect(statusOf(raw)).toBe(401);
    expect(bodyOf(raw)).toContain('Access denied: the credentials were not accepted.');
  });

  test('an unknown bearer token on JSON is refused before the body is sent', async () => {
    const raw = await rawRequest(
      service.url,
      headersOnly(`${HELLO}/HelloWorld`, { 'Content-Type': 'application/json', Authorization: 'Bearer nobody' }),
      5000,
      REMOTE_ADDRESS,
    );
    expect(statusOf(raw)).toBe(401);
  });

  test.each([
    ['HTTP POST', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['JSON', { 'Content-Type': 'application/json' }],
  ])('an address that may not call the operation on %s is refused before the body is sent', async (_name, headers) => {
    const raw = await rawRequest(
      service.url,
      headersOnly('/GetStudentsInformation.asmx/GetStudentInfoById', headers),
      5000,
      REMOTE_ADDRESS,
    );
    expect(statusOf(raw)).toBe(401);
    expect(bodyOf(raw)).toContain('GetStudentInfoById needs a caller');
  });

  test('an address that may not call the operation on HTTP GET is refused before its query is split', async () => {
    const refused = await remoteFetch(
      `${service.url}/GetStudentsInformation.asmx/GetStudentInfoById?${'a=1&'.repeat(1001)}`,
    );
    expect([refused.status, refused.text]).toEqual([401, expect.stringContaining('GetStudentInfoById needs a caller')]);
  });

  test('the right secret still calls, on every shape, and a flood body from it is still bounded', async () => {
    const authorization = basic('sis', secret);
    const allowed = await remotePost(
      '/GetStudentsInformation.asmx/GetStudentInfoById',
      { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: authorization },
      'StudentId=1',
    );
    expect(allowed.status).toBe(200);
    const flood = await remotePost(
      HELLO,
      { ...SOAP11_HEADERS, Authorization: authorization },
      envelope11(helloWith(elements(1300, (index) => `a${index}=""`))),
    );
    expect(flood.text).toContain('The request has more than 1000 attributes.');
  });

  test('a local caller is not asked for anything', async () => {
    const response = await post(
      `${service.url}/GetStudentsInformation.asmx/GetStudentInfoById`,
      {
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      'StudentId=1',
    );
    expect(response.status).toBe(200);
  });
});

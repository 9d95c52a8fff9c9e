import type { RunningService } from '../../src/service';
import { rawRequest, statusOf } from '../support/raw-http';
import { startTestService } from '../support/service';

/**
 * What an attacker tries between the router and the pages (Express) on one connection: a body
 * framed two ways (Content-Length and Transfer-Encoding), requests pipelined to a page and to an
 * operation, a request hidden in a page's body; and `__proto__` and `constructor` keys in JSON,
 * forms and queries. Every framing is refused or read one way, every pipelined request is answered
 * in order, nothing hidden in a body is run, and no key reaches a handler or a prototype.
 */
const HOST = 'Host: 127.0.0.1\r\n';
const OPERATION = `GET /GetNoteType.asmx/GetStudentsNoteType HTTP/1.1\r\n${HOST}\r\n`;
/** What only the operation's answer holds: the note types' element. */
const OPERATION_ANSWERED = /ArrayOfNoteType|NoteType>/;
const INFO = '/GetStudentsInformation.asmx/GetStudentInfoById';
const HELLO = `POST /GetStudentsNote.asmx/HelloWorld HTTP/1.1\r\n${HOST}`;

const statuses = (raw: string) => [...raw.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));

describe('request smuggling and prototype keys', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({ CONTRACT: 'typed' });
  });
  afterAll(() => service.close());

  test.each([
    [
      'Content-Length with Transfer-Encoding',
      `POST /GetStudentsNote.asmx HTTP/1.1\r\n${HOST}Content-Type: text/xml\r\nContent-Length: 4\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n${OPERATION}`,
    ],
    [
      'Transfer-Encoding with Content-Length',
      `POST /GetStudentsNote.asmx/HelloWorld HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\n` +
        `Content-Length: ${5 + OPERATION.length}\r\n\r\n0\r\n\r\n${OPERATION}`,
    ],
    ['two Content-Lengths', `${HELLO}Content-Length: 0\r\nContent-Length: ${OPERATION.length}\r\n\r\n${OPERATION}`],
    ['an unknown Transfer-Encoding', `${HELLO}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n${OPERATION}`],
    ['chunked, then identity', `${HELLO}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n${OPERATION}`],
  ])('%s: refused with 400, the request behind it never run', async (_, bytes) => {
    const raw = await rawRequest(service.url, bytes, 3000);
    expect(statuses(raw)).toEqual([400]);
    expect(raw).not.toMatch(OPERATION_ANSWERED);
  });

  test('a page and an operation pipelined on one connection are each answered, in order', async () => {
    const raw = await rawRequest(
      service.url,
      `GET /GetStudentsNote.asmx HTTP/1.1\r\n${HOST}\r\n` +
        OPERATION.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
      5000,
    );
    expect(statuses(raw)).toEqual([200, 200]);
    const [page, operation] = raw.split(/^(?=HTTP\/1\.1 )/m);
    expect(page).toContain('text/html');
    expect(operation).toMatch(OPERATION_ANSWERED);
  });

  test.each([
    ['a GET of a page', 'GET /GetStudentsNote.asmx'],
    ['a POST to a test form', 'POST /GetStudentsNote.asmx?op=HelloWorld'],
    ['a POST to the WSDL', 'POST /GetStudentsNote.asmx?WSDL'],
  ])('a request hidden in the body of %s is never run', async (_, line) => {
    const raw = await rawRequest(
      service.url,
      `${line} HTTP/1.1\r\n${HOST}Content-Type: text/plain\r\nContent-Length: ${OPERATION.length}\r\n\r\n${OPERATION}`,
      3000,
    );
    expect(statuses(raw)).toHaveLength(1);
    expect(raw).not.toMatch(OPERATION_ANSWERED);
  });

  const json = (body: string) =>
    fetch(`${service.url}${INFO}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  test('JSON: a parameter under __proto__ or constructor is no parameter', async () => {
    for (const body of ['{"__proto__":{"StudentId":"5"}}', '{"constructor":{"StudentId":"5"}}']) {
      const answer = await json(body);
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({
        Message: "Invalid web service call, missing value for parameter: 'StudentId'.",
        ExceptionType: 'System.InvalidOperationException',
      });
    }
  });

  test('JSON, form and query: __proto__ and constructor keys pollute no prototype; the call is answered', async () => {
    const polluting = '{"StudentId":"5","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
    const answers = [
      await json(polluting),
      await fetch(`${service.url}${INFO}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'StudentId=5&__proto__[polluted]=yes&constructor[prototype][polluted]=yes',
      }),
      await fetch(`${service.url}${INFO}?StudentId=5&__proto__[polluted]=yes&__proto__.polluted=yes`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/"StudentId":5|<StudentId>5<\/StudentId>/);
    }
    // The service runs in this process: a prototype it polluted would show here.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('StudentId');
  });

  test('form and query: a __proto__ field gives no parameter', async () => {
    const answer = await fetch(`${service.url}${INFO}?__proto__=5`);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toBe('Missing parameter: StudentId.\r\n');
    expect(statusOf(await rawRequest(service.url, `GET ${INFO}?constructor=5 HTTP/1.0\r\n\r\n`))).toBe(500);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic } from '../support/remote-client';
import { killed, type LogLine, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { envelope12, NS, soap11 } from '../support/soap';

/**
 * One JSON access line per request on the service's log, with the request's id, which is also in
 * the response's X-Request-Id: the caller's own when it sent a usable one. The service runs as an
 * operator runs it, and its log is read as an operator's log shipper would.
 */

const ACCESS_FIELDS = [
  'address',
  'binding',
  'caller',
  'durationMs',
  'endpoint',
  'level',
  'message',
  'operation',
  'requestId',
  'status',
  'time',
];

describe('the access log', () => {
  let folder: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-access-log-'));
    service = await startServiceProcess({ DATA_DIR: folder, DEMO_DATA: 'off', LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    if (service) await killed(service.child);
    rmSync(folder, { recursive: true, force: true });
  });

  const accessLineOf = (requestId: string): Promise<LogLine> =>
    service.waitForLine((line) => line.message === 'request' && line.requestId === requestId, 10_000);

  test('a line per call with its id, caller, address, endpoint, operation, binding, status and duration', async () => {
    const response = await soap11(
      `${service.url}/GetStudentsNote.asmx`,
      `<HelloWorld xmlns="${NS}" />`,
      `"${NS}HelloWorld"`,
      {
        'X-Request-Id': 'trace-42.a:b',
      },
    );
    expect([response.status, response.headers.get('x-request-id')]).toEqual([200, 'trace-42.a:b']);
    const line = await accessLineOf('trace-42.a:b');
    expect(Object.keys(line).sort()).toEqual(ACCESS_FIELDS);
    expect(line).toMatchObject({
      level: 'info',
      caller: 'local',
      address: '127.0.0.1',
      endpoint: '/GetStudentsNote.asmx',
      operation: 'HelloWorld',
      binding: 'soap11',
      status: 200,
    });
    expect(typeof line.durationMs).toBe('number');
    expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false);
  });

  test.each([
    ['too long', 'x'.repeat(129)],
    ['with a space', 'two words'],
    ['with a quote', 'id"},{"forged":"1'],
    ['with a percent-escape', 'a%0Ab'],
  ])('an X-Request-Id %s is replaced by a new one', async (_case, sent) => {
    const response = await fetch(`${service.url}/GetNoteType.asmx`, { headers: { 'X-Request-Id': sent } });
    const id = response.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await accessLineOf(id);
    expect(service.lines.some((line) => JSON.stringify(line).includes(sent))).toBe(false);
  });

  test('every binding and page returns the id it logged', async () => {
    const base = service.url;
    const soap12 = await fetch(`${base}/GetStudentsNote.asmx`, {
      method: 'POST',
      headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action="${NS}HelloWorld"` },
      body: envelope12(`<HelloWorld xmlns="${NS}" />`),
    });
    const requests: Array<[string, Promise<Response>]> = [
      ['soap12', Promise.resolve(soap12)],
      ['http-get', fetch(`${base}/GetStudentsNote.asmx/HelloWorld`)],
      [
        'http-post',
        fetch(`${base}/GetStudentsNote.asmx/HelloWorld`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: '',
        }),
      ],
      [
        'json',
        fetch(`${base}/GetStudentsNote.asmx/HelloWorld`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        }),
      ],
      ['wsdl', fetch(`${base}/GetStudentsNote.asmx?WSDL`)],
      ['not found', fetch(`${base}/missing`)],
      ['status', fetch(`${base}/status.json`)],
    ];
    for (const [name, pending] of requests) {
      const response = await pending;
      await response.arrayBuffer();
      const id = response.headers.get('x-request-id');
      expect([name, typeof id]).toEqual([name, 'string']);
      const line = await accessLineOf(id as string);
      expect([name, line.status]).toEqual([name, response.status]);
    }
  });

  test('no parameters, payloads or secrets: a GET call is logged by its endpoint and operation only', async () => {
    const phone = '0551234567';
    const code = '9081';
    const sent = await fetch(`${service.url}/AuthCodeSending.asmx/AuthCode?code=${code}&phone=${phone}`, {
      headers: { Authorization: basic('someone', 'a-secret-of-theirs') },
    });
    const line = await accessLineOf(sent.headers.get('x-request-id') as string);
    expect(line).toMatchObject({ endpoint: '/AuthCodeSending.asmx', operation: 'AuthCode', binding: 'http-get' });
    const log = service.lines.map((entry) => JSON.stringify(entry)).join('\n');
    for (const secret of [phone, code, 'a-secret-of-theirs', basic('someone', 'a-secret-of-theirs')]) {
      expect(log).not.toContain(secret);
    }
  });

  test('health and readiness probes are not logged at info', async () => {
    const ids: string[] = [];
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`${service.url}${path}`);
      expect(response.status).toBe(200);
      ids.push(response.headers.get('x-request-id') as string);
    }
    // A request after them is logged, so theirs would be by now.
    const after = await fetch(`${service.url}/GetNoteType.asmx`);
    await accessLineOf(after.headers.get('x-request-id') as string);
    expect(service.lines.filter((line) => ids.includes(String(line.requestId)))).toEqual([]);
  });
});

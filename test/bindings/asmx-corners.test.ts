import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { bodyOf, rawRequest, statusOf } from '../support/raw-http';
import { startTestService } from '../support/service';
import { killed, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { get } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const expectText = (response: { status: number; headers: Headers; text: string }, status: number, text: string) => {
  expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
    status,
    'text/plain; charset=utf-8',
    `${text}\r\n`,
  ]);
};

describe('discovery queries ASMX cannot answer', () => {
  test.each(['schema=schema1', 'schema=', 'SCHEMA=anything'])('?%s is 500 Schema not found.', async (query) => {
    expectText(await get(`${service.url}/GetStudentsNote.asmx?${query}`), 500, 'Schema not found.');
  });

  test.each(['WSDL=', 'wsdl=', 'Wsdl=wsdl1'])(
    '?%s asks for a description by id, and there is no other: 500',
    async (query) => {
      expectText(
        await get(`${service.url}/GetStudentsNote.asmx?${query}`),
        500,
        'XML Web service description was not found.',
      );
    },
  );

  test('?WSDL without a value is still the WSDL, and ?disco the DISCO document', async () => {
    const wsdl = await get(`${service.url}/GetStudentsNote.asmx?WSDL`);
    const disco = await get(`${service.url}/GetStudentsNote.asmx?disco`);
    expect([wsdl.status, wsdl.text.includes('<wsdl:definitions ')]).toEqual([200, true]);
    expect([disco.status, disco.text.includes('<discovery ')]).toEqual([200, true]);
  });
});

describe('the help page', () => {
  const listed = async (path: string) =>
    [...(await get(`${service.url}${path}`)).text.matchAll(/<li><a href="[^"]+\?op=(\w+)">/g)].map((match) => match[1]);

  test('lists the operations alphabetically, while the WSDL keeps the order of the interface', async () => {
    expect(await listed('/NotificationNotes.asmx')).toEqual(['GetNameAbsenceType', 'SendMarkNotes']);
    expect(await listed('/GetStudentsInformation.asmx')).toEqual(['GetStudentInfoById', 'GetStudentInfoByRecId']);
    const wsdl = (await get(`${service.url}/NotificationNotes.asmx?WSDL`)).text;
    expect(wsdl.indexOf('<s:element name="SendMarkNotes">')).toBeLessThan(
      wsdl.indexOf('<s:element name="GetNameAbsenceType">'),
    );
  });
});

describe("ASP.NET's HTML error pages", () => {
  const expectErrorPage = (
    response: { status: number; headers: Headers; text: string },
    status: number,
    message: string,
  ) => {
    expect([response.status, response.headers.get('content-type')]).toEqual([status, 'text/html; charset=utf-8']);
    expect(response.text).toContain("<H1>Server Error in '/' Application.");
    expect(response.text).toContain(`<h2> <i>${message}</i> </h2>`);
    expect(response.text).not.toMatch(/Stack Trace|\.ts:|\.js:|node_modules|Version Information/);
  };

  test.each(['/Nope.asmx', '/Nope.asmx?wsdl', '/nope'])('GET %s is 404 with the resource page', async (path) => {
    const response = await get(`${service.url}${path}`);
    expectErrorPage(response, 404, 'The resource cannot be found.');
    expect(response.text).toContain(`<b> Requested URL: </b>${path.split('?')[0]}<br>`);
  });

  test('an unknown path is echoed escaped', async () => {
    const response = await get(`${service.url}/%3Cscript%3E.asmx`);
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('<script>');
  });

  test.each(['PUT', 'DELETE', 'OPTIONS'])(
    '%s on an endpoint is 405, and names the methods ASMX serves',
    async (method) => {
      const response = await fetch(`${service.url}/GetStudentsNote.asmx`, { method });
      expectErrorPage(
        { status: response.status, headers: response.headers, text: await response.text() },
        405,
        'Request format is unrecognized.',
      );
      expect(response.headers.get('allow')).toBe('GET, POST');
    },
  );

  test.each(['/GetStudentsNote.asmx?wsdl', '/GetStudentsNote.asmx', '/GetStudentsNote.asmx/HelloWorld'])(
    'HEAD %s is 405, not the page without its body',
    async (path) => {
      const raw = await rawRequest(service.url, `HEAD ${path} HTTP/1.0\r\nHost: localhost\r\n\r\n`);
      expect(statusOf(raw)).toBe(405);
      expect(raw).toMatch(/\r\nContent-Type: text\/html; charset=utf-8\r\n/i);
      expect(bodyOf(raw)).toBe('');
    },
  );

  test.each(['js', 'jsdebug'])('GET /X.asmx/%s (the script proxy) is 500', async (name) => {
    expectErrorPage(
      await get(`${service.url}/GetStudentsNote.asmx/${name}`),
      500,
      'Only Web services with a [ScriptService] attribute on the class definition can be called from script.',
    );
  });
});

describe('a Host header that is not a valid host', () => {
  const pageWithHost = (path: string, host: string) =>
    rawRequest(service.url, `GET ${path} HTTP/1.0\r\nHost: ${host}\r\n\r\n`);

  test.each(['school.example:70000', '[1:2:3]', '[::1', '999.1.1.1:80'])(
    'Host %s: the operation page names the service itself instead of failing',
    async (host) => {
      const raw = await pageWithHost('/GetStudentsNote.asmx?op=HelloWorld', host);
      expect(statusOf(raw)).toBe(200);
      expect(bodyOf(raw)).toContain('action="http://localhost:0/GetStudentsNote.asmx/HelloWorld"');
      expect(bodyOf(raw)).not.toContain(host);
    },
  );

  test('a valid Host with a port is still echoed on the operation page', async () => {
    const raw = await pageWithHost('/GetStudentsNote.asmx?op=HelloWorld', 'school.example:8443');
    expect(bodyOf(raw)).toContain('action="http://school.example:8443/GetStudentsNote.asmx/HelloWorld"');
  });
});

describe('a Host header that is not a valid host, in the log', () => {
  let folder: string;
  let running: ServiceProcess;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-host-'));
    running = await startServiceProcess({ DATA_DIR: folder, DEMO_DATA: 'off' });
  });
  afterAll(async () => {
    await killed(running.child);
    rmSync(folder, { recursive: true, force: true });
  });

  test('is one warning line, and no failure with a stack trace', async () => {
    const raw = await rawRequest(
      running.url,
      'GET /GetStudentsNote.asmx?op=HelloWorld HTTP/1.0\r\nHost: school.example:99999\r\n\r\n',
    );
    expect(statusOf(raw)).toBe(200);
    const warning = await running.waitForLine((line) => line.message.startsWith('Host header is not a valid host'));
    expect(warning).toMatchObject({ level: 'warn', host: 'school.example:99999' });
    const after = running.lines.slice(running.lines.indexOf(warning));
    expect(after.filter((line) => line.level === 'warn' || line.level === 'error')).toHaveLength(1);
  });
});

import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { schoolFolder, writeSchools } from '../../src/district/school-list';
import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { envelope11, NS } from '../support/soap';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { TEST_TODAY, withTestStore } from '../support/stores';

/**
 * A school registered with `--host` over HTTP: requests whose Host header names it (port and case
 * aside) reach it at the bare paths, and its WSDL, DISCO and pages then name the bare paths on that
 * host; its /slug path still reaches it, and every other host reaches the deployment's own school.
 * Districts are served on SQLite (see schools-command.test.ts), so this suite runs on SQLite.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
/** Hill has 40 students, Vale 20, the deployment's own school 10: id 35 is Hill's alone. */
const ONLY_AT_HILL = '35';

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** A request with the Host header given, as a client that reached the service by that name sends it. */
function sentTo(url: string, host: string, path: string, body?: string): Promise<Answer> {
  const headers: Record<string, string> = { Host: host };
  if (body !== undefined) {
    headers['Content-Type'] = 'text/xml; charset=utf-8';
    headers.SOAPAction = `"${NS}GetStudentInfoById"`;
  }
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function studentAt(url: string, host: string, path: string, studentId: string): Promise<Answer> {
  const body = envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`);
  return sentTo(url, host, path, body);
}

describe('a school registered with a host is served at the bare paths on that host', () => {
  let dataDirectory: string;
  let service: RunningService;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-host-'));
    writeSchools(dataDirectory, [
      { sourcedId: 'org-hill', path: '/hill', host: 'hill.example.org' },
      { sourcedId: 'org-vale', path: '/vale' },
    ]);
    const settings = { CONTRACT: 'typed', DEMO_DATA: 'off', OUTBOX_KEY: TEST_OUTBOX_KEY };
    const seeds = [
      [schoolFolder(dataDirectory, 'org-hill'), 40, 13],
      [schoolFolder(dataDirectory, 'org-vale'), 20, 17],
      [dataDirectory, 10, 3],
    ] as const;
    for (const [folder, students, seed] of seeds) {
      await withTestStore({ ...settings, DATA_DIR: folder }, (store) =>
        loadDemoSchool(store, { students, seed, startYear: 2026 }),
      );
    }
    service = await startTestService({ ...settings, DATA_DIR: dataDirectory }, { now: () => TEST_TODAY });
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('answers from the school’s store at the bare paths on its host, in any case and with any port', async () => {
    for (const host of ['hill.example.org', 'Hill.Example.ORG:8080', 'hill.example.org.']) {
      const answer = await studentAt(service.url, host, STUDENTS, ONLY_AT_HILL);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(`<StudentId>${ONLY_AT_HILL}</StudentId>`);
    }
  });

  it('answers the bare paths on any other host from the deployment’s own school', async () => {
    for (const host of ['vale.example.org', 'hill.example.org.evil.org', 'hill-example.org', '[::1]:8080']) {
      const answer = await studentAt(service.url, host, STUDENTS, ONLY_AT_HILL);
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(`<StudentId>${ONLY_AT_HILL}</StudentId>`);
    }
  });

  it('names the bare paths on its host in its WSDL, DISCO and help pages', async () => {
    const host = 'Hill.Example.org:8080';
    const wsdl = await sentTo(service.url, host, `${STUDENTS}?WSDL`);
    expect(wsdl.status).toBe(200);
    expect(wsdl.text).toContain(`location="http://${host}${STUDENTS}"`);
    expect(wsdl.text).not.toContain('/hill/');
    const disco = await sentTo(service.url, host, `${STUDENTS}?disco`);
    expect(disco.text).toContain(`docRef="http://${host}${STUDENTS}"`);
    const help = await sentTo(service.url, host, `${STUDENTS}?op=GetStudentInfoById`);
    expect(help.status).toBe(200);
    expect(help.text).toContain(`http://${host}${STUDENTS}`);
    expect(help.text).not.toContain('/hill/');
  });

  it('keeps the school at its path, named with its path on any other host', async () => {
    const atPath = await studentAt(service.url, '127.0.0.1', `/hill${STUDENTS}`, ONLY_AT_HILL);
    expect(atPath.text).toContain(`<StudentId>${ONLY_AT_HILL}</StudentId>`);
    const wsdl = await sentTo(service.url, 'district.example.org', `/hill${STUDENTS}?WSDL`);
    expect(wsdl.text).toContain(`location="http://district.example.org/hill${STUDENTS}"`);
    // A path names its school on every host, the host of another school included.
    const vale = await sentTo(service.url, 'hill.example.org', `/vale${STUDENTS}?WSDL`);
    expect(vale.text).toContain(`location="http://hill.example.org/vale${STUDENTS}"`);
    const valeStudent = await studentAt(service.url, 'hill.example.org', `/vale${STUDENTS}`, ONLY_AT_HILL);
    expect(valeStudent.text).not.toContain(`<StudentId>${ONLY_AT_HILL}</StudentId>`);
  });
});

import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { readSchoolList, schoolFolder, writeSchoolList, writeSchools } from '../../src/district/school-list';
import type { RunningService } from '../../src/service';
import { runCommandAside } from '../support/cli';
import { eventually } from '../support/eventually';
import { startTestService } from '../support/service';
import { envelope11, get, NS, post } from '../support/soap';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { TEST_TODAY, withTestStore } from '../support/stores';

/**
 * A running service follows the deployment's list of schools: `schools add` and `schools remove`,
 * run as the operator runs them (a process of their own) while the service answers on a real port,
 * take effect without a restart. A school removed answers 404 once the command returns, and its
 * store is archived only after the service has let go of it. Districts are served on SQLite (see
 * schools-command.test.ts), so this suite runs on SQLite.
 */

const STUDENTS = '/GetStudentsInformation.asmx';

function studentCall(baseUrl: string, studentId: string) {
  return post(
    baseUrl + STUDENTS,
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`),
  );
}

describe('a running service follows the list of schools', () => {
  let dataDirectory: string;
  let backupDirectory: string;
  let service: RunningService;

  /** The command as a process of its own, asynchronously: the service in this process answers meanwhile. */
  const cli = (...args: string[]) => runCommandAside({ DATA_DIR: dataDirectory, BACKUP_DIR: backupDirectory }, args);

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-live-'));
    backupDirectory = mkdtempSync(join(tmpdir(), 'school-district-live-backups-'));
    service = await startTestService(
      { DATA_DIR: dataDirectory, CONTRACT: 'typed', DEMO_DATA: 'off' },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
    rmSync(backupDirectory, { recursive: true, force: true });
  });

  it('serves a school added while it runs within a second of the command, without a restart', async () => {
    expect((await get(`${service.url}/north${STUDENTS}?WSDL`)).status).toBe(404);
    const added = await cli('schools', 'add', 'org-north', '--path', '/north');
    expect(added).toMatchObject({ status: 0 });
    const addedAt = Date.now();
    const wsdl = await eventually(
      () => get(`${service.url}/north${STUDENTS}?WSDL`),
      (answer) => answer.status === 200,
      { timeoutMs: 5_000 },
    );
    expect(wsdl.status).toBe(200);
    expect(Date.now() - addedAt).toBeLessThan(1_500);
    expect(wsdl.text).toContain(`location="${service.url}/north${STUDENTS}"`);
  });

  it('answers 404 at a removed school’s paths when the command returns; its store archived once let go', async () => {
    const folder = schoolFolder(dataDirectory, 'org-south');
    writeSchools(dataDirectory, [...readSchoolList(dataDirectory).schools, { sourcedId: 'org-south', path: '/south' }]);
    await withTestStore({ DATA_DIR: folder, OUTBOX_KEY: TEST_OUTBOX_KEY, DEMO_DATA: 'off' }, (store) =>
      loadDemoSchool(store, { students: 25, seed: 9, startYear: 2026 }),
    );
    const served = await eventually(
      () => studentCall(`${service.url}/south`, '7'),
      (answer) => answer.status === 200,
      { timeoutMs: 5_000 },
    );
    expect(served.text).toContain('<StudentId>7</StudentId>');

    const removed = await cli('schools', 'remove', 'org-south', '--yes');
    // The whole run on failure: its stderr says why.
    expect(removed).toMatchObject({ status: 0 });
    expect((await studentCall(`${service.url}/south`, '7')).status).toBe(404);
    expect(existsSync(folder)).toBe(false);
    expect(readSchoolList(dataDirectory)).toEqual({
      schools: [{ sourcedId: 'org-north', path: '/north' }],
      removing: [],
    });

    const [archive] = readdirSync(backupDirectory).filter((name) => name.includes('org-south'));
    const archived = new BetterSqlite3(join(backupDirectory, archive), { readonly: true });
    try {
      const count = (table: string) =>
        (archived.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
      expect(count('students')).toBe(25);
      // The service removed its row among the processes serving as its last write, before the archive was taken.
      expect(count('service_processes')).toBe(0);
    } finally {
      archived.close();
    }
    // The school that stays is still served.
    expect((await get(`${service.url}/north${STUDENTS}?WSDL`)).status).toBe(200);
  });

  it('lets a call in flight when a school is removed finish before its store is archived and deleted', async () => {
    const folder = schoolFolder(dataDirectory, 'org-east');
    writeSchools(dataDirectory, [...readSchoolList(dataDirectory).schools, { sourcedId: 'org-east', path: '/east' }]);
    await withTestStore({ DATA_DIR: folder, OUTBOX_KEY: TEST_OUTBOX_KEY, DEMO_DATA: 'off' }, (store) =>
      loadDemoSchool(store, { students: 15, seed: 4, startYear: 2026 }),
    );
    await eventually(
      () => studentCall(`${service.url}/east`, '3'),
      (answer) => answer.status === 200,
      { timeoutMs: 5_000 },
    );
    // A call whose body is still on its way: the school is answering it while the removal starts.
    const body = envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>3</StudentId></GetStudentInfoById>`);
    const { port } = new URL(service.url);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    const answered = new Promise((resolve) => socket.on('close', resolve));
    socket.write(
      `POST /east${STUDENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\n` +
        `SOAPAction: "${NS}GetStudentInfoById"\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n` +
        body.slice(0, 40),
    );
    const removal = cli('schools', 'remove', 'org-east', '--yes');
    await eventually(
      async () => readSchoolList(dataDirectory).removing.length,
      (removing) => removing === 1,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    const refused = await eventually(
      () => studentCall(`${service.url}/east`, '3'),
      (answer) => answer.status === 404,
      { timeoutMs: 3_000 },
    );
    expect(refused.status).toBe(404);
    // Past the time the command gives the services to see the list: it waits for the call.
    await sleep(4_000);
    expect(existsSync(join(folder, 'school.sqlite'))).toBe(true);
    expect(readdirSync(backupDirectory).filter((name) => name.includes('org-east'))).toEqual([]);
    socket.write(body.slice(40));
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('<StudentId>3</StudentId>');
    const removed = await removal;
    expect(removed).toMatchObject({ status: 0 });
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(backupDirectory).filter((name) => name.includes('org-east'))).toHaveLength(1);
  });

  it('finishes a removal cut short when run again, and refuses the school’s sourcedId meanwhile', async () => {
    const folder = schoolFolder(dataDirectory, 'org-west');
    expect(await cli('schools', 'add', 'org-west', '--path', '/west')).toMatchObject({ status: 0 });
    // As a removal killed after its first step leaves the list: the school no longer served, its folder still there.
    const list = readSchoolList(dataDirectory);
    const west = list.schools.filter((school) => school.sourcedId === 'org-west');
    writeSchoolList(dataDirectory, {
      schools: list.schools.filter((school) => school.sourcedId !== 'org-west'),
      removing: west,
    });
    const refused = await eventually(
      () => get(`${service.url}/west${STUDENTS}?WSDL`),
      (answer) => answer.status === 404,
      { timeoutMs: 3_000 },
    );
    expect(refused.status).toBe(404);
    const again = await cli('schools', 'add', 'org-west', '--path', '/west2');
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('org-west is being removed');
    expect(await cli('schools', 'remove', 'org-west', '--yes')).toMatchObject({ status: 0 });
    expect(existsSync(folder)).toBe(false);
    expect(readSchoolList(dataDirectory).removing).toEqual([]);
    expect(readdirSync(backupDirectory).filter((name) => name.includes('org-west'))).toHaveLength(1);
  });

  it('goes on serving the schools it serves when the list stops reading back', async () => {
    const before = await get(`${service.url}/north${STUDENTS}?WSDL`);
    expect(before.status).toBe(200);
    writeFileSync(join(dataDirectory, 'schools', 'schools.json'), '{"schools": [{"sourcedId": "../x"');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await get(`${service.url}/north${STUDENTS}?WSDL`)).status).toBe(200);
    writeSchoolList(dataDirectory, { schools: [{ sourcedId: 'org-north', path: '/north' }], removing: [] });
  });
});

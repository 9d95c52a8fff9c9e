import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { schoolFolder, writeSchools } from '../../src/district/school-list';
import type { RunningService } from '../../src/service';
import { REMOTE_TEST_SETTINGS } from '../support/callers';
import { BINDINGS, callOperation } from '../support/typed-calls';
import { startTestService } from '../support/service';
import { envelope11, get, NS, post } from '../support/soap';
import { TEST_TODAY, withTestStore } from '../support/stores';

/**
 * A district deployment over HTTP: two registered schools, each with a demo school of its own
 * (different seeds and sizes), beside the deployment's own school at the bare paths. Routing does
 * not depend on the engine, so this suite runs on SQLite; what keeps the schools apart (callers,
 * unknown ids, stores, removal) is tested on both engines in school-isolation.test.ts.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
/** Ids run from 1: school A has 120 students, school B 30, the deployment's own school 60. */
const ONLY_IN_A = '100';
const IN_ALL = '5';

function studentCall(baseUrl: string, studentId: string) {
  return post(
    baseUrl + STUDENTS,
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`),
  );
}

describe('a district deployment serves each registered school at its own path', () => {
  let dataDirectory: string;
  let service: RunningService;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-'));
    writeSchools(dataDirectory, [
      { sourcedId: 'org-a', path: '/alpha', name: 'Alpha' },
      { sourcedId: 'org-b', path: '/beta' },
    ]);
    const settings = { ...REMOTE_TEST_SETTINGS, CONTRACT: 'typed', DEMO_DATA: 'off' };
    await withTestStore({ ...settings, DATA_DIR: schoolFolder(dataDirectory, 'org-a') }, (store) =>
      loadDemoSchool(store, { students: 120, seed: 7, startYear: 2026 }),
    );
    await withTestStore({ ...settings, DATA_DIR: schoolFolder(dataDirectory, 'org-b') }, (store) =>
      loadDemoSchool(store, { students: 30, seed: 11, startYear: 2026 }),
    );
    await withTestStore({ ...settings, DATA_DIR: dataDirectory }, (store) =>
      loadDemoSchool(store, { students: 60, seed: 3, startYear: 2026 }),
    );
    service = await startTestService({ ...settings, DATA_DIR: dataDirectory }, { now: () => TEST_TODAY });
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('answers each school from its own store, and the bare paths from the deployment’s', async () => {
    const [a, b, own] = await Promise.all(
      [`${service.url}/alpha`, `${service.url}/beta`, service.url].map((base) => studentCall(base, IN_ALL)),
    );
    for (const answer of [a, b, own]) {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<StudentId>5</StudentId>');
    }
    const names = [a, b, own].map((answer) => /<NameEn>([^<]*)</.exec(answer.text)?.[1]);
    expect(new Set(names).size).toBe(3);
  });

  it.each(BINDINGS)('serves a school’s students over %s at its path', async (binding) => {
    const atA = await callOperation(
      `${service.url}/alpha`,
      STUDENTS,
      'GetStudentInfoById',
      { StudentId: ONLY_IN_A },
      binding,
    );
    expect(atA.status).toBe(200);
    expect(atA.text).toMatch(/"?StudentId"?[>:]\s*"?100\b/);
    const atB = await callOperation(
      `${service.url}/beta`,
      STUDENTS,
      'GetStudentInfoById',
      { StudentId: ONLY_IN_A },
      binding,
    );
    expect(atB.text).not.toMatch(/"?StudentId"?[>:]\s*"?100\b/);
  });

  it('names the school’s path in its WSDL, DISCO and help pages', async () => {
    const wsdl = await get(`${service.url}/alpha${STUDENTS}?WSDL`);
    expect(wsdl.status).toBe(200);
    expect(wsdl.text).toContain(`location="${service.url}/alpha${STUDENTS}"`);
    expect(wsdl.text).not.toContain(`location="${service.url}${STUDENTS}"`);
    const disco = await get(`${service.url}/beta${STUDENTS}?disco`);
    expect(disco.text).toContain(`docRef="${service.url}/beta${STUDENTS}"`);
    const help = await get(`${service.url}/alpha${STUDENTS}?op=GetStudentInfoById`);
    expect(help.status).toBe(200);
    expect(help.text).toContain(`/alpha${STUDENTS}`);
    const bare = await get(`${service.url}${STUDENTS}?WSDL`);
    expect(bare.text).toContain(`location="${service.url}${STUDENTS}"`);
  });

  it('names each school’s own path in pages asked of several schools at once (one page server)', async () => {
    const paths = ['/alpha', '/beta', '', '/beta', '/alpha'];
    const answers = await Promise.all(paths.map((path) => get(`${service.url}${path}${STUDENTS}?WSDL`)));
    answers.forEach((answer, index) => {
      expect(answer.status).toBe(200);
      expect(answer.text).toContain(`location="${service.url}${paths[index]}${STUDENTS}"`);
    });
    const forms = await Promise.all(paths.map((path) => get(`${service.url}${path}${STUDENTS}?op=GetStudentInfoById`)));
    forms.forEach((form, index) => {
      expect(form.text).toContain(`action="${service.url}${paths[index]}${STUDENTS}/GetStudentInfoById"`);
    });
  });

  it('answers a path of an unknown school with the 404 page of any unknown path', async () => {
    for (const path of [`/gamma${STUDENTS}`, `/Alpha${STUDENTS}`, '/alpha']) {
      const unknown = await get(service.url + path);
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('The resource cannot be found.');
      expect(unknown.text).toContain(path);
    }
    const posted = await studentCall(`${service.url}/gamma`, IN_ALL);
    expect(posted.status).toBe(404);
  });
});

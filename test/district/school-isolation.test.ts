import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { schoolFolder, schoolsFolder } from '../../src/district/school-list';
import type { RunningService } from '../../src/service';
import type { EngineSettings } from '../../src/store/engine-driver';
import { addTestCaller, REMOTE_TEST_SETTINGS, remoteCall } from '../support/callers';
import { districtCli, makeTestDistrict, type TestDistrict } from '../support/district';
import { describeEachEngine } from '../support/engines';
import { basic } from '../support/remote-client';
import { startTestService } from '../support/service';
import { envelope11, NS, post } from '../support/soap';
import { storeStatementsDuring } from '../support/store-statements';
import { TEST_TODAY } from '../support/stores';

/**
 * What keeps the schools of one district deployment apart, on each engine: a caller belongs to one
 * school, an id of one school is unknown at another in the bytes of any unknown id, every statement
 * a school's call runs goes to that school's own store (its SQLite file, or its PostgreSQL schema
 * on connections whose search_path is that schema alone), and a school removed leaves no file and
 * no schema behind.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
/** Ids run from 1: school A has 120 students, school B 30. */
const ONLY_IN_A = '100';
const IN_ALL = '5';
const UNKNOWN = '999999';

function studentCall(baseUrl: string, studentId: string) {
  return post(
    baseUrl + STUDENTS,
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The schemas of a district's schools in the database (none on SQLite). */
async function schoolSchemas(deployment: EngineSettings): Promise<string[]> {
  if (!deployment.databaseUrl) return [];
  const client = new Client({ connectionString: deployment.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname like 'school\\_%' order by 1",
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** How a statement's store is named (see storeStatementsDuring): the SQLite file, or the schema in the options. */
function storeMark(settings: EngineSettings): string {
  if (!settings.databaseUrl) return join(settings.dataDirectory, 'school.sqlite');
  return new URL(settings.databaseUrl).searchParams.get('options') ?? '';
}

describeEachEngine('the schools of a district kept apart', (engine) => {
  let district: TestDistrict;
  let service: RunningService;
  let secretOfA: string;

  beforeAll(async () => {
    district = await makeTestDistrict(
      engine.freshStoreSettings(),
      [
        {
          entry: { sourcedId: 'org-a', path: '/alpha' },
          students: 120,
          seed: 7,
          prepare: async (store) => {
            secretOfA = (await addTestCaller(store, { name: 'district-app', secret: true })) as string;
          },
        },
        { entry: { sourcedId: 'org-b', path: '/beta' }, students: 30, seed: 11 },
      ],
      { students: 60, seed: 3 },
    );
    service = await startTestService(
      { ...REMOTE_TEST_SETTINGS, CONTRACT: 'typed', DEMO_DATA: 'off', ...district.settings },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    district?.remove();
  });

  it('lets a caller of school A in at A only: refused at B’s paths and at the bare paths', async () => {
    const call = (path: string) =>
      remoteCall(service.url, path, 'GetStudentInfoById', { StudentId: IN_ALL }, 'soap11', {
        from: '127.0.0.2',
        headers: { Authorization: basic('district-app', secretOfA) },
      });
    expect((await call(`/alpha${STUDENTS}`)).status).toBe(200);
    for (const path of [`/beta${STUDENTS}`, STUDENTS]) {
      const refused = await call(path);
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain('<StudentId>');
    }
  });

  it('answers an id of school A at school B as an unknown id, in the same bytes and comparable time', async () => {
    expect((await studentCall(`${service.url}/alpha`, ONLY_IN_A)).text).toContain(
      `<StudentId>${ONLY_IN_A}</StudentId>`,
    );
    const unknown = await studentCall(`${service.url}/beta`, UNKNOWN);
    const timesOfA: number[] = [];
    const timesOfUnknown: number[] = [];
    for (let round = 0; round < 15; round += 1) {
      for (const [id, times] of [
        [ONLY_IN_A, timesOfA],
        [UNKNOWN, timesOfUnknown],
      ] as const) {
        const started = performance.now();
        const answer = await studentCall(`${service.url}/beta`, id);
        times.push(performance.now() - started);
        expect([answer.status, answer.text]).toEqual([unknown.status, unknown.text]);
      }
    }
    // Loosely: a loaded machine blurs times, but an answer that read A's store would not hide in that.
    expect(median(timesOfA)).toBeLessThan(3 * median(timesOfUnknown) + 20);
    expect(median(timesOfUnknown)).toBeLessThan(3 * median(timesOfA) + 20);
  });

  it('runs every statement of a school’s call on that school’s own store', async () => {
    const marks = { a: storeMark(district.storeOf('org-a')), b: storeMark(district.storeOf('org-b')) };
    expect(marks.a).not.toBe(marks.b);
    const statements = await storeStatementsDuring(async () => {
      expect((await studentCall(`${service.url}/beta`, IN_ALL)).text).toContain(`<StudentId>${IN_ALL}</StudentId>`);
      await studentCall(`${service.url}/beta`, ONLY_IN_A);
    });
    // The callers' refresh and the audit trail of every school run on their own timers meanwhile: the
    // statements that read students are the calls'.
    const students = statements.filter((statement) => /\bstudents\b/.test(statement.sql));
    expect(students.length).toBeGreaterThan(0);
    for (const statement of students) expect(statement.store).toBe(marks.b);
  });

  it('removes a school whole: its archive kept, no file, folder or schema of it left', async () => {
    await service.close();
    const backups = mkdtempSync(join(tmpdir(), 'school-district-archives-'));
    try {
      const [schemaOfA, schemaOfB] = await schoolSchemas(district.deployment);
      const removed = districtCli(district, ['schools', 'remove', 'org-b', '--yes'], { BACKUP_DIR: backups });
      expect(removed.status).toBe(0);
      expect(readdirSync(backups)).toEqual([expect.stringMatching(/^school-org-b-\d{8}T\d{6}Z\.(sqlite|dump)$/)]);
      expect(existsSync(schoolFolder(district.deployment.dataDirectory, 'org-b'))).toBe(false);
      expect(readdirSync(schoolsFolder(district.deployment.dataDirectory))).not.toContain('org-b');
      if (engine.engine === 'postgres') {
        expect(removed.stdout).toContain(`the schema ${schemaOfB}`);
        expect(await schoolSchemas(district.deployment)).toEqual([schemaOfA]);
      }
    } finally {
      rmSync(backups, { recursive: true, force: true });
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { schoolFolder, writeSchools } from '../../src/district/school-list';
import type { RunningService } from '../../src/service';
import { payloadSealer } from '../../src/lib/payload-sealer';
import { insertOutboxRows } from '../../src/store/queries/outbox';
import { processesSeenSince } from '../../src/store/queries/service-processes';
import { eventually } from '../support/eventually';
import { startTestService } from '../support/service';
import { envelope11, NS, post } from '../support/soap';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { TEST_TODAY, withTestStore } from '../support/stores';

/**
 * A district's schools over HTTP when the process may hold fewer open than it lists
 * (SCHOOLS_OPEN_MAX=2 of 3) and closes them after a second without requests: nothing opens before
 * its first request, concurrent first requests share one opening, the bound holds under calls to
 * every school, a closed school answers again, and calls that come while a school closes wait for
 * it and are answered. A closed school with messages to send is opened again for them. Districts
 * are served on SQLite (see schools-command.test.ts).
 */

const STUDENTS = '/GetStudentsInformation.asmx';
/** Each school's students, seeded differently: a student's name tells which store answered. */
const SCHOOLS = [
  { sourcedId: 'org-a', path: '/alpha', students: 30, seed: 21 },
  { sourcedId: 'org-b', path: '/beta', students: 20, seed: 22 },
  { sourcedId: 'org-c', path: '/gamma', students: 10, seed: 23 },
] as const;

function studentCall(baseUrl: string, studentId: string) {
  return post(
    baseUrl + STUDENTS,
    { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` },
    envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`),
  );
}

const nameIn = (text: string) => /<NameEn>([^<]*)</.exec(text)?.[1];

describe('schools opened at their first request, closed when idle, within SCHOOLS_OPEN_MAX', () => {
  let dataDirectory: string;
  let service: RunningService;
  /** Student 5's name in each school, read from its store before the service starts. */
  const nameOfFive = new Map<string, string>();

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-lazy-'));
    writeSchools(
      dataDirectory,
      SCHOOLS.map(({ sourcedId, path }) => ({ sourcedId, path })),
    );
    for (const school of SCHOOLS) {
      const folder = schoolFolder(dataDirectory, school.sourcedId);
      await withTestStore({ DATA_DIR: folder, OUTBOX_KEY: TEST_OUTBOX_KEY, DEMO_DATA: 'off' }, async (store) => {
        await loadDemoSchool(store, { students: school.students, seed: school.seed, startYear: 2026 });
        const row = await store.db
          .selectFrom('students')
          .select('name_en')
          .where('id', '=', 5)
          .executeTakeFirstOrThrow();
        nameOfFive.set(school.path, row.name_en as string);
      });
    }
    service = await startTestService(
      {
        DATA_DIR: dataDirectory,
        CONTRACT: 'typed',
        DEMO_DATA: 'off',
        SCHOOLS_OPEN_MAX: '2',
        SCHOOLS_IDLE_CLOSE_SECONDS: '1',
      },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  const answeredBy = async (path: string) => {
    const answer = await studentCall(`${service.url}${path}`, '5');
    expect(answer.status).toBe(200);
    return nameIn(answer.text);
  };

  it('opens no school before its first request, and one for concurrent first requests', async () => {
    expect(service.schoolsOpen()).toBe(0);
    const names = await Promise.all(Array.from({ length: 8 }, () => answeredBy('/alpha')));
    expect(new Set(names)).toEqual(new Set([nameOfFive.get('/alpha')]));
    expect(service.schoolsOpen()).toBe(1);
    // One opening: one row among the processes serving from the school's store.
    const rows = await withTestStore(
      { DATA_DIR: schoolFolder(dataDirectory, 'org-a'), OUTBOX_KEY: TEST_OUTBOX_KEY, DEMO_DATA: 'off' },
      (store) => processesSeenSince(store, new Date(Date.now() - 60_000).toISOString()),
    );
    expect(rows).toHaveLength(1);
  });

  it('holds at most SCHOOLS_OPEN_MAX open, each school answered from its own store', async () => {
    for (const path of ['/alpha', '/beta', '/gamma', '/alpha', '/gamma', '/beta']) {
      expect(await answeredBy(path)).toBe(nameOfFive.get(path));
      expect(service.schoolsOpen()).toBeLessThanOrEqual(2);
    }
  });

  it('closes idle schools, and a closed school answers again', async () => {
    const open = await eventually(
      async () => service.schoolsOpen(),
      (count) => count === 0,
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    expect(open).toBe(0);
    expect(await answeredBy('/gamma')).toBe(nameOfFive.get('/gamma'));
    expect(service.schoolsOpen()).toBe(1);
  });

  it('answers the calls that come while their school closes to make room', async () => {
    await eventually(
      async () => service.schoolsOpen(),
      (count) => count === 0,
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // Alpha, then Beta: Alpha is the least recently used when Gamma needs a place.
    expect(await answeredBy('/alpha')).toBe(nameOfFive.get('/alpha'));
    expect(await answeredBy('/beta')).toBe(nameOfFive.get('/beta'));
    const gamma = answeredBy('/gamma');
    // Alpha's close has begun (its outbox asked, then the school closing) when its next calls come.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const alpha = Array.from({ length: 4 }, () => answeredBy('/alpha'));
    const names = await Promise.all([gamma, ...alpha]);
    expect(names).toEqual([nameOfFive.get('/gamma'), ...alpha.map(() => nameOfFive.get('/alpha'))]);
    expect(service.schoolsOpen()).toBeLessThanOrEqual(2);
  });
});

describe('a closed school with messages to send is opened for them', () => {
  let dataDirectory: string;
  let service: RunningService;
  const settingsOf = (sourcedId: string) => ({
    DATA_DIR: schoolFolder(dataDirectory, sourcedId),
    OUTBOX_KEY: TEST_OUTBOX_KEY,
    DEMO_DATA: 'off',
  });
  /** The processes serving from a school's store: one while the service holds it open. */
  const holders = (sourcedId: string) =>
    withTestStore(settingsOf(sourcedId), (store) =>
      processesSeenSince(store, new Date(Date.now() - 60_000).toISOString()).then((rows) => rows.length),
    );

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-visits-'));
    writeSchools(dataDirectory, [
      { sourcedId: 'org-s', path: '/sender' },
      { sourcedId: 'org-q', path: '/quiet' },
    ]);
    // An SMS no gateway takes (none is set): it stays queued, as a message waiting to be tried again does.
    await withTestStore(settingsOf('org-s'), (store) =>
      insertOutboxRows(store, [
        {
          reference: 'visit-1',
          channel: 'sms',
          recipient: '+966500000001',
          device_id: null,
          payload: payloadSealer(Buffer.from(TEST_OUTBOX_KEY, 'hex')).seal('Your code is 4711'),
          idempotency_key: null,
          state: 'queued',
          attempts: 0,
          next_attempt_at: '2026-11-22T09:00:00.000Z',
          lease_owner: null,
          lease_until: null,
          last_error: null,
          created_at: '2026-11-22T09:00:00.000Z',
          finished_at: null,
        },
      ]),
    );
    await withTestStore(settingsOf('org-q'), async () => undefined);
    service = await startTestService(
      { DATA_DIR: dataDirectory, DEMO_DATA: 'off', SCHOOLS_OPEN_MAX: '1', SCHOOLS_IDLE_CLOSE_SECONDS: '1' },
      { now: () => TEST_TODAY },
    );
  });

  afterAll(async () => {
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('keeps it open when idle, and opens it again once the school that took its place has closed', async () => {
    expect((await studentCall(`${service.url}/sender`, '1')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await holders('org-s')).toBe(1);

    expect((await studentCall(`${service.url}/quiet`, '1')).status).toBe(200);
    expect(await holders('org-s')).toBe(0);
    const reopened = await eventually(
      () => holders('org-s'),
      (count) => count === 1,
      { timeoutMs: 6_000, intervalMs: 200 },
    );
    expect(reopened).toBe(1);
    expect(await holders('org-q')).toBe(0);
    expect(service.schoolsOpen()).toBe(1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSchools } from '../../src/district/school-list';
import { configureLog } from '../../src/lib/log';
import type { StatusReport } from '../../src/pages/status-report';
import type { RunningService } from '../../src/service';
import { capturedLog } from '../support/captured-log';
import { call } from '../support/legacy-calls';
import { startTestService } from '../support/service';

/**
 * One place to watch a district, over HTTP: the deployment's /status lists its schools with their
 * calls of the last hour, each school's own /status counts its calls alone, /metrics labels each
 * school's series with its sourcedId (the deployment's own school's carry no school label), and
 * the access line of a school's call names the school. On SQLite, as districts are served.
 */

async function statusAt(base: string): Promise<StatusReport> {
  const answer = await fetch(`${base}/status.json`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as StatusReport;
}

const helloCalls = (report: StatusReport) =>
  report.operations.find((operation) => operation.operation === 'HelloWorld')?.calls ?? 0;

describe('a district’s figures and log lines name each school', () => {
  let service: RunningService;
  let dataDirectory: string;
  let lines: string[];

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-figures-'));
    writeSchools(dataDirectory, [
      { sourcedId: 'org-a', path: '/alpha', name: 'Alpha' },
      { sourcedId: 'org-b', path: '/beta' },
    ]);
    service = await startTestService({ DATA_DIR: dataDirectory, DEMO_DATA: 'off', LOG_LEVEL: 'info' });
    lines = await capturedLog(async () => {
      for (const base of [`${service.url}/alpha`, `${service.url}/alpha`, `${service.url}/alpha`]) {
        expect((await call(base, 'soap11')).status).toBe(200);
      }
      expect((await call(`${service.url}/beta`, 'json')).status).toBe(200);
      expect((await call(service.url, 'soap11')).status).toBe(200);
    });
    configureLog({ logLevel: 'silent', logFormat: 'json' });
  });
  afterAll(async () => {
    configureLog({ logLevel: 'silent', logFormat: 'json' });
    await service?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('lists the schools on the deployment’s /status with their calls, each school’s own page its own', async () => {
    const own = await statusAt(service.url);
    expect(own.schools).toEqual([
      expect.objectContaining({ sourcedId: 'org-a', path: '/alpha', name: 'Alpha', refusals: 0 }),
      expect.objectContaining({ sourcedId: 'org-b', path: '/beta', name: null }),
    ]);
    expect(own.schools?.map((school) => school.latency.calls)).toEqual([3, 1]);
    expect(helloCalls(own)).toBe(1);
    expect(helloCalls(await statusAt(`${service.url}/alpha`))).toBe(3);
    const atB = await statusAt(`${service.url}/beta`);
    expect(helloCalls(atB)).toBe(1);
    expect(atB.schools).toBeUndefined();
    const page = await (await fetch(`${service.url}/status`)).text();
    expect(page).toContain('Schools, last hour');
    expect(page).toContain('org-a');
  });

  it('labels each school’s request series with its sourcedId on /metrics', async () => {
    const text = await (await fetch(`${service.url}/metrics`)).text();
    const hello = (labels: string) =>
      new RegExp(`school_requests_total\\{[^}]*operation="HelloWorld"${labels}\\} (\\d+)`);
    expect(text).toMatch(hello('[^}]*binding="soap11",outcome="ok",school="org-a"'));
    expect(hello('[^}]*binding="soap11",outcome="ok",school="org-a"').exec(text)?.[1]).toBe('3');
    expect(hello('[^}]*binding="json",outcome="ok",school="org-b"').exec(text)?.[1]).toBe('1');
    // The deployment's own school: no school label, which Prometheus reads as school="".
    expect(hello(',binding="soap11",outcome="ok"').exec(text)?.[1]).toBe('1');
    expect(text).toMatch(/school_refusals_total\{reason="forbidden",school="org-b"\} 0/);
  });

  it('names the school in the access line of its calls, and none at the deployment’s own', () => {
    const requests = lines
      .filter((line) => line.includes('"message":"request"'))
      .map((line) => JSON.parse(line) as { school?: string; operation?: string });
    expect(requests.map((line) => line.school)).toEqual(['org-a', 'org-a', 'org-a', 'org-b', undefined]);
  });
});

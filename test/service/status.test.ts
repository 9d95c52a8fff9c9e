import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusReport } from '../../src/pages/status-report';
import { serviceVersion } from '../../src/lib/package-info';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { remoteFetch } from '../support/remote-client';
import { csvText, smallSchool } from '../support/roster-bundle';
import { importBundle } from '../support/roster-import';
import { startTestService } from '../support/service';
import { NS, soap11 } from '../support/soap';

/**
 * GET /status (HTML) and /status.json: the service's figures for the school's IT staff, to
 * METRICS_NETWORKS only. The school is imported from a folder whose name needs escaping in HTML.
 */

describeEachEngine('The status page', ({ engine, freshStoreSettings }) => {
  let service: RunningService;
  let bundle: string;

  beforeAll(async () => {
    service = await startTestService({
      ...freshStoreSettings(),
      DEMO_DATA: 'off',
      CONTRACT: 'typed',
      LOCAL_NETWORKS: '127.0.0.1/32',
      METRICS_NETWORKS: '127.0.0.1/32',
    });
    bundle = join(mkdtempSync(join(tmpdir(), 'status-')), 'roster <b>&"export"');
    mkdirSync(bundle);
    for (const [name, rows] of Object.entries(smallSchool())) writeFileSync(join(bundle, `${name}.csv`), csvText(rows));
    await importBundle(service.store, bundle);

    const hello = `${service.url}/GetStudentsNote.asmx`;
    for (let call = 0; call < 3; call += 1)
      expect((await soap11(hello, `<HelloWorld xmlns="${NS}" />`, `"${NS}HelloWorld"`)).status).toBe(200);
    expect(
      (await callJson(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: 1 })).status,
    ).toBe(200);
    expect(
      (await remoteFetch(`${service.url}/GetStudentsInformation.asmx/GetStudentInfoById?StudentId=1`)).status,
    ).toBe(403);
    // No SMS gateway: the code waits in the outbox.
    const code = { code: '1234', phone: '0500000002' };
    expect((await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', code)).status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(join(bundle, '..'), { recursive: true, force: true });
  });

  const report = async (): Promise<StatusReport> => {
    const response = await fetch(`${service.url}/status.json`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    return (await response.json()) as StatusReport;
  };

  test('status.json: the service, its store, the processes serving, calls and refusals of the last hour', async () => {
    const status = await report();
    const port = new URL(service.url).port;
    expect(status).toMatchObject({
      version: serviceVersion(),
      node: `${hostname()}:${port}`,
      store: { engine, problem: null },
      workers: { serving: 1, reported: [{ pid: process.pid }] },
      nodes: [{ node: `${hostname()}:${port}`, processes: 1, version: serviceVersion() }],
      refusals: { forbidden: 1, unauthenticated: 0, 'rate-limited': 0 },
      outbox: [{ state: 'queued', channel: 'sms', count: 1 }],
      lastImport: { mode: 'bulk', source: bundle },
    });
    expect(status.store.sizeBytes).toBeGreaterThan(0);
    expect(status.lastImport?.rowsWritten).toBeGreaterThan(0);
    expect(status.callsPerMinute).toHaveLength(60);
    const helloCalls = status.callsPerMinute.reduce((sum, minute) => sum + (minute.calls.HelloWorld ?? 0), 0);
    expect(helloCalls).toBe(3);
    const hello = status.operations.find((operation) => operation.operation === 'HelloWorld');
    expect(hello?.calls).toBe(3);
    expect(hello?.p50Ms).toBeGreaterThan(0);
    expect(hello?.p99Ms).toBeGreaterThanOrEqual(hello?.p50Ms ?? 0);
    expect(status.latency.calls).toBe(status.operations.reduce((sum, operation) => sum + operation.calls, 0));
  });

  test('the HTML page is self-contained, with the chart drawn in SVG and every text escaped', async () => {
    const response = await fetch(`${service.url}/status`);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const html = await response.text();
    expect(html).toContain('<svg class="chart"');
    expect(html).toContain('HelloWorld: 3 calls</title>');
    expect(html).toContain('roster &lt;b&gt;&amp;&quot;export&quot;');
    expect(html).not.toContain('<b>&');
    expect(html).not.toMatch(/<script|<link|<img|src=/i);
  });

  test('served to METRICS_NETWORKS only', async () => {
    for (const path of ['/status', '/status.json']) {
      const refused = await remoteFetch(`${service.url}${path}`);
      expect([refused.status, refused.text]).toEqual([403, `${path} is answered only to METRICS_NETWORKS.\n`]);
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { eventually } from '../support/eventually';
import { callJson } from '../support/json-calls';
import { rawRequest } from '../support/raw-http';
import { basic, remoteFetch } from '../support/remote-client';
import { killed, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startTestService } from '../support/service';
import { envelope11, NS, soap11 } from '../support/soap';
import { openTestSchool, TEST_TODAY } from '../support/stores';

/**
 * GET /metrics: the Prometheus text of the whole service, for METRICS_NETWORKS only. A metric's
 * value is read by its name and labels as they appear in the text.
 */

type Samples = Map<string, number>;

function samplesOf(text: string): Samples {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}

/** A series' key as the text writes it: labels in the order given. */
function series(name: string, labels: Record<string, string> = {}): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? name : `${name}{${entries.map(([key, value]) => `${key}="${value}"`).join(',')}}`;
}

const call = (endpoint: string, operation: string, binding: string, outcome: string) => ({
  endpoint,
  operation,
  binding,
  outcome,
});

async function scrape(url: string): Promise<{ samples: Samples; contentType: string | null }> {
  const response = await fetch(`${url}/metrics`);
  expect(response.status).toBe(200);
  return { samples: samplesOf(await response.text()), contentType: response.headers.get('content-type') };
}

const HELLO = `<HelloWorld xmlns="${NS}" />`;

describe('/metrics of one process', () => {
  let folder: string;
  let school: Store;
  let sms: FakeGateway;
  let service: RunningService;
  let phone: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-metrics-'));
    school = await openTestSchool({ DATA_DIR: folder });
    phone = (await school.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow()).phone;
    sms = await startFakeGateway();
    service = await startTestService(
      {
        DATA_DIR: folder,
        CONTRACT: 'typed',
        LOCAL_NETWORKS: '127.0.0.1/32',
        METRICS_NETWORKS: '127.0.0.1/32',
        SMS_GATEWAY_URL: `${sms.url}/send`,
        DELIVERY_POLL_MS: '20',
        AUTH_CODE_PER_PHONE_PER_MINUTE: '1',
      },
      { now: () => TEST_TODAY },
    );
  });
  afterAll(async () => {
    await service?.close();
    await school?.close();
    await sms?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('counts requests by endpoint, operation, binding and outcome, with their durations and refusals', async () => {
    const endpoint = `${service.url}/GetStudentsNote.asmx`;
    for (let count = 0; count < 2; count += 1)
      expect((await soap11(endpoint, HELLO, `"${NS}HelloWorld"`)).status).toBe(200);
    expect((await fetch(`${service.url}/GetStudentsNote.asmx/HelloWorld`)).status).toBe(200);
    expect(
      (await callJson(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: 5 })).status,
    ).toBe(200);
    // Not well-formed XML; from another machine without permission; with credentials nobody has.
    expect(
      (await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: '<x' })).status,
    ).toBe(400);
    const infoUrl = `${service.url}/GetStudentsInformation.asmx/GetStudentInfoById?StudentId=5`;
    expect((await remoteFetch(infoUrl)).status).toBe(403);
    expect((await remoteFetch(infoUrl, { headers: { Authorization: basic('nobody', 'wrong') } })).status).toBe(401);
    // The second code for the same number within a minute is over the limit.
    const code = { code: '1234', phone };
    expect((await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', code)).status).toBe(200);
    expect((await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', code)).status).toBe(500);
    expect((await fetch(`${service.url}/no-such-page`)).status).toBe(404);
    await sms.waitForRequests(1);

    const { samples, contentType } = await eventually(
      () => scrape(service.url),
      ({ samples: found }) =>
        found.get(series('school_gateway_attempts_total', { channel: 'sms', result: 'sent' })) === 1,
    );
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const requests = (labels: ReturnType<typeof call>) => samples.get(series('school_requests_total', labels));
    expect(requests(call('/GetStudentsNote.asmx', 'HelloWorld', 'soap11', 'ok'))).toBe(2);
    expect(requests(call('/GetStudentsNote.asmx', 'HelloWorld', 'http-get', 'ok'))).toBe(1);
    expect(requests(call('/GetStudentsInformation.asmx', 'GetStudentInfoById', 'json', 'ok'))).toBe(1);
    expect(requests(call('/GetStudentsNote.asmx', '', 'soap11', 'malformed'))).toBe(1);
    expect(requests(call('/GetStudentsInformation.asmx', 'GetStudentInfoById', 'http-get', 'forbidden'))).toBe(1);
    expect(requests(call('/GetStudentsInformation.asmx', 'GetStudentInfoById', 'http-get', 'unauthenticated'))).toBe(1);
    expect(requests(call('/AuthCodeSending.asmx', 'AuthCode', 'json', 'rate-limited'))).toBe(1);
    expect(requests(call('other', '', '', 'client'))).toBe(1);
    for (const reason of ['forbidden', 'unauthenticated', 'rate-limited']) {
      expect([reason, samples.get(series('school_refusals_total', { reason }))]).toEqual([reason, 1]);
    }

    const hello = call('/GetStudentsNote.asmx', 'HelloWorld', 'soap11', 'ok');
    const histogram = 'school_request_duration_seconds';
    expect(samples.get(series(`${histogram}_count`, hello))).toBe(2);
    expect(samples.get(series(`${histogram}_bucket`, { ...hello, le: '+Inf' }))).toBe(2);
    expect(samples.get(series(`${histogram}_sum`, hello))).toBeGreaterThan(0);
    // The scrape itself is the one request being answered.
    expect(samples.get('school_requests_in_flight')).toBe(1);
    expect(samples.get('school_store_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(samples.get(series('school_outbox_messages', { state: 'sent', channel: 'sms' }))).toBe(1);
    expect(samples.get('school_store_up')).toBe(1);
    expect(samples.get('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(samples.has('nodejs_eventloop_lag_seconds')).toBe(true);
  });

  test('served to METRICS_NETWORKS only', async () => {
    const refused = await remoteFetch(`${service.url}/metrics`);
    expect([refused.status, refused.text]).toEqual([403, '/metrics is answered only to METRICS_NETWORKS.\n']);
  });
});

describe('/metrics with several workers', () => {
  let folder: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-metrics-workers-'));
  });
  afterAll(async () => {
    if (service) await killed(service.child);
    rmSync(folder, { recursive: true, force: true });
  });

  test('every worker is counted, whichever worker answers', async () => {
    service = await startServiceProcess({ DATA_DIR: folder, DEMO_DATA: 'off', WORKERS: '2' }, 'workers listening');
    const { host } = new URL(service.url);
    const body = envelope11(HELLO);
    // A connection each: node:cluster hands connections to the workers in turn.
    const calls = 20;
    for (let index = 0; index < calls; index += 1) {
      const answer = await rawRequest(
        service.url,
        `POST /GetStudentsNote.asmx HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/xml; charset=utf-8\r\n` +
          `SOAPAction: "${NS}HelloWorld"\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
      expect(answer.startsWith('HTTP/1.1 200 OK')).toBe(true);
    }
    const hello = series('school_requests_total', call('/GetStudentsNote.asmx', 'HelloWorld', 'soap11', 'ok'));
    for (let scrapeCount = 0; scrapeCount < 4; scrapeCount += 1) {
      const text = await rawRequest(service.url, `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(samplesOf(text.slice(text.indexOf('\r\n\r\n') + 4)).get(hello)).toBe(calls);
    }
    const status = JSON.parse(
      (await rawRequest(service.url, `GET /status.json HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).split(
        '\r\n\r\n',
      )[1],
    ) as { workers: { serving: number; reported: Array<{ pid: number }> } };
    expect(status.workers.serving).toBe(2);
    expect(new Set(status.workers.reported.map((worker) => worker.pid)).size).toBe(2);
  });
});

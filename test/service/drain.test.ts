import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway';
import { callJson } from '../support/json-calls';
import { rawRequest } from '../support/raw-http';
import { isRunning, killed, listeningPids, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { envelope11, NS } from '../support/soap';
import { openTestSchool, openTestStore } from '../support/stores';

/**
 * Stopping without losing a call: SIGTERM drains a process (calls in flight finish, keep-alive
 * connections close after their answer, the delivery worker gives back what it holds, the audit
 * trail is written), and SIGHUP restarts every worker of WORKERS=2 one at a time under load.
 */

/** A partner school that holds every forwarded call until the test lets it answer. */
async function startHoldingPartner(): Promise<{
  url: string;
  held: Promise<void>;
  release(): void;
  close(): Promise<void>;
}> {
  let arrived: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const waiting: ServerResponse[] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      waiting.push(response);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    release: () => {
      for (const response of waiting.splice(0)) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ d: 'answered by the partner' }));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A keep-alive connection that sends requests one at a time and reads each answer. */
function keepAliveConnection(url: string): Promise<{ ask(path: string): Promise<string>; socket: Socket }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      let pending: ((answer: string) => void) | undefined;
      let received = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const headEnd = received.indexOf('\r\n\r\n');
        const length = Number(/content-length: (\d+)/i.exec(received.toString('latin1'))?.[1] ?? -1);
        if (headEnd !== -1 && length >= 0 && received.length >= headEnd + 4 + length) {
          const answer = received.toString('utf8');
          received = Buffer.alloc(0);
          pending?.(answer);
        }
      });
      resolve({
        socket,
        ask: (path) =>
          new Promise((answer) => {
            pending = answer;
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
          }),
      });
    });
    socket.on('error', reject);
  });
}

describe('SIGTERM drains a process', () => {
  let folder: string;
  let service: ServiceProcess | undefined;
  const closing: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-drain-'));
    await (await openTestSchool({ DATA_DIR: folder })).close();
  });
  afterEach(async () => {
    if (service) await killed(service.child);
    service = undefined;
    for (const close of closing.splice(0)) await close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the calls in flight finish, then it exits 0; new connections are refused meanwhile', async () => {
    const partner = await startHoldingPartner();
    closing.push(partner.close);
    service = await startServiceProcess({
      DATA_DIR: folder,
      CONTRACT: 'typed',
      PARTNER_SCHOOLS: partner.url,
      FEDERATION_SECRET: 'a-shared-secret-for-the-test',
      FORWARD_TIMEOUT_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '60000',
    });
    const { url } = service;
    const idle = await keepAliveConnection(url);
    expect(await idle.ask('/GetNoteType.asmx/GetStudentsNoteType')).toMatch(/^HTTP\/1\.1 200 OK/);
    // An audited call just before the signal: its entry is written before the process exits.
    const audited = await callJson(url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', { StudentId: 3 });
    expect(audited.status).toBe(200);
    const inFlight = callJson(url, '/NotificationNotes.asmx', 'GetNameAbsenceType', {
      id: '1',
      baseUrlSchool: partner.url,
    });
    await partner.held;

    service.child.kill('SIGTERM');
    await service.waitForLine((line) => line.message === 'stopping');
    await expect(rawRequest(url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')).rejects.toThrow(/ECONNREFUSED/);
    // A keep-alive connection opened before is still answered, and told to close after the answer.
    const onIdle = await idle.ask('/GetNoteType.asmx/GetStudentsNoteType');
    const [statusLine, ...headerLines] = onIdle.slice(0, onIdle.indexOf('\r\n\r\n')).split('\r\n');
    expect([statusLine, headerLines.includes('Connection: close')]).toEqual(['HTTP/1.1 200 OK', true]);

    partner.release();
    expect(await inFlight).toEqual({ status: 200, body: { d: 'answered by the partner' } });
    expect(await service.exited).toBe(0);
    expect(service.lines.some((line) => line.message === 'stopped')).toBe(true);

    const store = await openTestStore({ DATA_DIR: folder });
    try {
      const entries = await store.db
        .selectFrom('audit_events')
        .select('operation')
        .where('operation', '=', 'GetStudentInfoById')
        .execute();
      expect(entries).toHaveLength(1);
      // It left the processes serving from the store.
      expect(await store.db.selectFrom('service_processes').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  test('the delivery worker gives back the messages it holds, to be sent at once by the next process', async () => {
    const hanging: FakeGateway = await startFakeGateway();
    hanging.setDefault('hang');
    const working: FakeGateway = await startFakeGateway();
    closing.push(hanging.close, working.close);
    const store = await openTestStore({ DATA_DIR: folder });
    const { phone } = await store.db.selectFrom('guardians').select('phone').orderBy('id').executeTakeFirstOrThrow();
    await store.close();
    const settings = { DATA_DIR: folder, DELIVERY_POLL_MS: '50', SHUTDOWN_TIMEOUT_MS: '500' };
    service = await startServiceProcess({
      ...settings,
      SMS_GATEWAY_URL: `${hanging.url}/send`,
      GATEWAY_TIMEOUT_MS: '60000',
    });
    expect((await callJson(service.url, '/AuthCodeSending.asmx', 'AuthCode', { code: '4321', phone })).status).toBe(
      200,
    );
    await hanging.waitForRequests(1);

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const stopped = await openTestStore({ DATA_DIR: folder });
    try {
      const message = await stopped.db
        .selectFrom('outbox_messages')
        .select(['state', 'attempts', 'lease_owner', 'lease_until'])
        .executeTakeFirstOrThrow();
      expect(message).toEqual({ state: 'queued', attempts: 0, lease_owner: null, lease_until: null });
    } finally {
      await stopped.close();
    }

    // Its lease (DELIVERY_LEASE_MS, a minute) would outlast the wait below had it not been given back.
    service = await startServiceProcess({ ...settings, SMS_GATEWAY_URL: `${working.url}/send` });
    const [sent] = await working.waitForRequests(1, 15_000);
    expect(sent.body).toContain('4321');
  });
});

describe('SIGHUP restarts the workers one at a time', () => {
  let folder: string;
  let service: ServiceProcess | undefined;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-rolling-'));
  });
  afterAll(async () => {
    if (service) {
      const pids = listeningPids(service);
      await killed(service.child);
      for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(folder, { recursive: true, force: true });
  });

  test('under constant load no call is lost, and every worker is replaced', async () => {
    service = await startServiceProcess({ DATA_DIR: folder, DEMO_DATA: 'off', WORKERS: '2' }, 'workers listening');
    const running = service;
    const before = listeningPids(running);
    expect(before).toHaveLength(2);

    const body = envelope11(`<HelloWorld xmlns="${NS}" />`);
    const outcomes = { answered: 0, failed: [] as string[] };
    let loading = true;
    // Four clients calling back to back over keep-alive connections (fetch's), as a busy application does.
    const client = async () => {
      while (loading) {
        try {
          const response = await fetch(`${running.url}/GetStudentsNote.asmx`, {
            method: 'POST',
            headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
            body,
          });
          const text = await response.text();
          if (response.status === 200 && text.includes('Hello World')) outcomes.answered += 1;
          else outcomes.failed.push(`HTTP ${response.status}`);
        } catch (error) {
          outcomes.failed.push(String((error as { cause?: unknown }).cause ?? error));
        }
      }
    };
    const clients = Array.from({ length: 4 }, client);
    const answeredBy = async (count: number) => {
      while (outcomes.answered < count) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await answeredBy(200);

    running.child.kill('SIGHUP');
    await running.waitForLine((line) => line.message === 'workers restarted', 90_000);
    const restartedAt = outcomes.answered;
    await answeredBy(restartedAt + 200);
    loading = false;
    await Promise.all(clients);

    expect(outcomes.failed).toEqual([]);
    const after = listeningPids(running).filter((pid) => !before.includes(pid));
    expect(after).toHaveLength(2);
    // The old workers drained and exited 0 (a death would have been logged, and replaced).
    expect(before.filter(isRunning)).toEqual([]);
    expect(
      running.lines
        .filter((line) => line.message === 'stopped')
        .map((line) => Number(line.pid))
        .sort(),
    ).toEqual([...before].sort());
    expect(running.lines.some((line) => line.message === 'worker died')).toBe(false);
    expect(after.every(isRunning)).toBe(true);
  });
});

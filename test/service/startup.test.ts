import { rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NetworkInterfaceInfo } from 'node:os';
import { notFoundPage } from '../../src/pages/error-page';
import type { RunningService } from '../../src/service';
import { listeningAddresses } from '../../src/server/listening-addresses';
import { REMOTE_TEST_SETTINGS } from '../support/callers';
import { remoteFetch } from '../support/remote-client';
import { startTestService } from '../support/service';
import { killed, type ServiceProcess, startServiceProcess } from '../support/service-process';

/**
 * What an operator sees when the service starts: one line with the effective settings, secrets
 * masked, and the addresses it really answers on; each warning about the node once, however many
 * workers; and at / an index of the services for this machine's callers, while anyone else still
 * gets ASP.NET's 404 page.
 */

const SECRETS = {
  OUTBOX_KEY: '7c'.repeat(32),
  FEDERATION_SECRET: 'federation-secret-never-logged',
  SMS_GATEWAY_AUTHORIZATION: 'Bearer sms-token-never-logged',
};

describe('the start-up line and warnings of a node with two workers', () => {
  let folder: string;
  let service: ServiceProcess | undefined;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-startup-'));
    service = await startServiceProcess(
      { DATA_DIR: folder, DEMO_DATA: 'off', WORKERS: '2', ...SECRETS },
      'workers listening',
    );
  });
  afterAll(async () => {
    if (service) await killed(service.child);
    rmSync(folder, { recursive: true, force: true });
  });

  test('one line holds the settings, secrets masked, and the address it listens on', () => {
    const lines = (service as ServiceProcess).lines;
    const withSettings = lines.filter((line) => line.settings !== undefined);
    expect(withSettings.map((line) => line.message)).toEqual(['workers listening']);
    const [startLine] = withSettings as unknown as Array<
      Record<string, unknown> & { settings: Record<string, Record<string, unknown>> }
    >;
    expect(startLine?.settings.delivery?.outboxKey).toBe('***');
    expect(startLine?.settings).toMatchObject({ workers: 2, host: '127.0.0.1', dataDirectory: folder });
    const port = new URL((service as ServiceProcess).url).port;
    expect(startLine?.addresses).toEqual([`http://127.0.0.1:${port}`]);
    const everything = JSON.stringify(lines);
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
  });

  test('a warning about the node is written once, not once per worker', () => {
    const warnings = (service as ServiceProcess).lines.filter((line) =>
      line.message.startsWith('no gateway configured'),
    );
    expect(warnings.map((line) => line.channel).sort()).toEqual(['push', 'sms']);
  });
});

describe('the addresses of a server bound to every interface', () => {
  const interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = {
    lo: [
      { address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '', cidr: null },
      { address: '::1', family: 'IPv6', internal: true, netmask: '', mac: '', cidr: null, scopeid: 0 },
    ],
    eth0: [
      { address: '10.0.0.11', family: 'IPv4', internal: false, netmask: '255.255.255.0', mac: '', cidr: null },
      { address: 'fe80::1', family: 'IPv6', internal: false, netmask: '', mac: '', cidr: null, scopeid: 2 },
      { address: '2001:db8::11', family: 'IPv6', internal: false, netmask: '', mac: '', cidr: null, scopeid: 0 },
    ],
  };

  test('are those of the machine, never "localhost"', () => {
    expect(listeningAddresses({ address: '0.0.0.0', family: 'IPv4', port: 8080 }, interfaces)).toEqual([
      'http://127.0.0.1:8080',
      'http://10.0.0.11:8080',
    ]);
    expect(listeningAddresses({ address: '::', family: 'IPv6', port: 8080 }, interfaces)).toEqual([
      'http://127.0.0.1:8080',
      'http://[::1]:8080',
      'http://10.0.0.11:8080',
      'http://[2001:db8::11]:8080',
    ]);
    expect(listeningAddresses({ address: '10.0.0.11', family: 'IPv4', port: 80 }, interfaces)).toEqual([
      'http://10.0.0.11:80',
    ]);
  });
});

describe('the page at /', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({ ...REMOTE_TEST_SETTINGS, DEMO_DATA: 'off' });
  });
  afterAll(() => service.close());

  test("is an index of the 16 services with their links, status and docs for this machine's callers", async () => {
    const index = await remoteFetch(`${service.url}/`, { from: '127.0.0.1' });
    expect([index.status, index.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    const services = [...index.text.matchAll(/<li><a href="(\/\w+\.asmx)">/g)].map((match) => match[1]);
    expect(services).toEqual(service.catalog.endpoints.map((endpoint) => endpoint.path));
    expect(services).toHaveLength(16);
    expect(index.text).toContain('href="/GetStudentsInformation.asmx?WSDL"');
    expect(index.text).toContain('href="/status"');
    expect(index.text).toContain('docs/');
    expect(index.text).toContain('16 services, 18 operations');
  });

  test("answers anyone else with ASP.NET's 404 page, byte for byte", async () => {
    const remote = await remoteFetch(`${service.url}/`, { from: '127.0.0.2' });
    const elsewhere = await remoteFetch(`${service.url}/no-such-page`, { from: '127.0.0.1' });
    expect([remote.status, remote.text]).toEqual([404, notFoundPage('/')]);
    expect(remote.headers['content-type']).toBe(elsewhere.headers['content-type']);
    const posted = await remoteFetch(`${service.url}/`, { from: '127.0.0.1', method: 'POST', body: 'x' });
    expect([posted.status, posted.text]).toEqual([404, notFoundPage('/')]);
  });
});

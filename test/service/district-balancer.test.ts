import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listFile, readSchoolList, schoolsFolder } from '../../src/district/school-list';
import { schoolStoresOf } from '../../src/store/engines';
import type { RunningService } from '../../src/service';
import {
  type Balancer,
  HAPROXY_TEMPLATE,
  type NodeState,
  startBalancer,
  UNAVAILABLE_ANSWERS,
} from '../support/balancer';
import { cliArguments, ROOT } from '../support/cli';
import { makeTestDistrict, type TestDistrict } from '../support/district';
import { createDatabase, startTestPostgres, type TestPostgres } from '../support/postgres';
import { startTestService } from '../support/service';
import { envelope11, NS } from '../support/soap';
import { TEST_TODAY } from '../support/stores';
import { TEST_OUTBOX_KEY } from '../support/test-key';
import { describeWithTools } from '../support/tools';

/**
 * A district as docs/districts.md deploys it: two nodes on one PostgreSQL database behind haproxy
 * configured by deploy/haproxy.cfg, the second node given the first's list of schools alone, each
 * school answering at its path and at the bare paths on its own host through the balancer, and a
 * school removed on both nodes at once, as the page says to; and the
 * complete haproxy.cfg the page prints, which must be the template rendered and accepted by haproxy.
 */

const STUDENTS = '/GetStudentsInformation.asmx';
/** Beta has 40 students, Alpha 20, the deployment's own school none: id 35 is Beta's alone. */
const ONLY_AT_BETA = '35';
const BETA_HOST = 'beta.example.test';
const DISTRICTS_PAGE = resolve(__dirname, '..', '..', 'docs', 'districts.md');

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** The typed student lookup over SOAP 1.1, sent with the Host header given, as a client of that name sends it. */
function lookupAt(url: string, host: string, path: string, studentId: string): Promise<Answer> {
  const body = envelope11(`<GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>`);
  const headers = { Host: host, 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` };
  return new Promise((resolveAnswer, reject) => {
    const outgoing = request(`${url}${path}`, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolveAnswer({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** `school-service schools remove SOURCEDID --yes` on a node (its DATA_DIR), run alongside others; its exit code. */
function removeOnNode(settings: Record<string, string>, sourcedId: string): Promise<number | null> {
  const removal = spawn(process.execPath, cliArguments('schools', 'remove', sourcedId, '--yes'), {
    cwd: ROOT,
    env: { ...process.env, OUTBOX_KEY: TEST_OUTBOX_KEY, LOG_LEVEL: 'warn', ...settings },
    stdio: 'ignore',
  });
  return new Promise((resolveExit, reject) => {
    removal.once('error', reject);
    removal.once('exit', (code) => resolveExit(code));
  });
}

const served = (nodes: NodeState[]) => Object.fromEntries(nodes.map((node) => [node.name, node.responses2xx]));

describeWithTools(['haproxy'], { postgres: true })('a district’s schools on two nodes behind haproxy', () => {
  let cluster: TestPostgres;
  let district: TestDistrict;
  let secondDataDirectory: string;
  const nodes: RunningService[] = [];
  let balancer: Balancer;

  beforeAll(async () => {
    cluster = await startTestPostgres();
    district = await makeTestDistrict({ DATABASE_URL: createDatabase(cluster.url, 'district_balanced') }, [
      { entry: { sourcedId: 'org-a', path: '/alpha' }, students: 20, seed: 7 },
      { entry: { sourcedId: 'org-b', path: '/beta', host: BETA_HOST }, students: 40, seed: 11 },
    ]);
    // The second node gets the first's list alone, as the page says to copy it.
    secondDataDirectory = mkdtempSync(join(tmpdir(), 'school-district-node2-'));
    mkdirSync(schoolsFolder(secondDataDirectory), { mode: 0o700 });
    copyFileSync(listFile(district.settings.DATA_DIR), listFile(secondDataDirectory));
    const settings = { ...district.settings, CONTRACT: 'typed', DEMO_DATA: 'off', DELIVERY_WORKER: 'off' };
    nodes.push(await startTestService(settings, { now: () => TEST_TODAY }));
    nodes.push(await startTestService({ ...settings, DATA_DIR: secondDataDirectory }, { now: () => TEST_TODAY }));
    balancer = await startBalancer(
      nodes.map((node, index) => ({ name: `node${index + 1}`, address: new URL(node.url).host })),
    );
    await balancer.waitForNodes((states) => states.length === 2 && states.every((node) => node.status === 'UP'));
  }, 120_000);

  afterAll(async () => {
    await balancer?.stop();
    for (const node of nodes) await node.close();
    cluster?.stop();
    district?.remove();
    if (secondDataDirectory) rmSync(secondDataDirectory, { recursive: true, force: true });
  });

  it('answers each school at its path from its own store, on both nodes', async () => {
    const before = served(await balancer.nodes());
    const host = new URL(balancer.url).host;
    for (let round = 0; round < 4; round += 1) {
      const atBeta = await lookupAt(balancer.url, host, `/beta${STUDENTS}`, ONLY_AT_BETA);
      expect(atBeta.status).toBe(200);
      expect(atBeta.text).toContain(`<StudentId>${ONLY_AT_BETA}</StudentId>`);
      const atAlpha = await lookupAt(balancer.url, host, `/alpha${STUDENTS}`, ONLY_AT_BETA);
      expect(atAlpha.status).toBe(200);
      expect(atAlpha.text).not.toContain(`<StudentId>${ONLY_AT_BETA}</StudentId>`);
    }
    const after = served(await balancer.nodes());
    for (const name of ['node1', 'node2']) expect(after[name]).toBeGreaterThan(before[name]);
  });

  it('answers a school at the bare paths on its own host, and the deployment’s own school on any other', async () => {
    const onItsHost = await lookupAt(balancer.url, BETA_HOST, STUDENTS, ONLY_AT_BETA);
    expect(onItsHost.text).toContain(`<StudentId>${ONLY_AT_BETA}</StudentId>`);
    const elsewhere = await lookupAt(balancer.url, 'district.example.test', STUDENTS, ONLY_AT_BETA);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).not.toContain(`<StudentId>${ONLY_AT_BETA}</StudentId>`);
  });

  it('names the school’s path on the balancer’s address in its WSDL', async () => {
    const response = await fetch(`${balancer.url}/alpha${STUDENTS}?WSDL`);
    expect(await response.text()).toContain(`location="${balancer.url}/alpha${STUDENTS}"`);
  });

  it('removes a school on both nodes at once: 404 at its path on both, its schema archived and dropped', async () => {
    const backups = [
      mkdtempSync(join(tmpdir(), 'school-backups-1-')),
      mkdtempSync(join(tmpdir(), 'school-backups-2-')),
    ];
    try {
      const onNodes = [district.settings.DATA_DIR, secondDataDirectory].map((dataDirectory, index) => ({
        ...district.settings,
        DATA_DIR: dataDirectory,
        BACKUP_DIR: backups[index],
      }));
      const codes = await Promise.all(onNodes.map((settings) => removeOnNode(settings, 'org-a')));
      for (const [index, code] of codes.entries()) {
        // A removal the other node's cut short is finished by the same command again, as the page says.
        if (code !== 0) expect(await removeOnNode(onNodes[index], 'org-a')).toBe(0);
      }
      const host = new URL(balancer.url).host;
      for (let call = 0; call < 4; call += 1) {
        expect((await lookupAt(balancer.url, host, `/alpha${STUDENTS}`, '1')).status).toBe(404);
      }
      const place = district.storeOf('org-a');
      expect(await schoolStoresOf(place).exists(place)).toBe(false);
      expect(backups.flatMap((folder) => readdirSync(folder)).length).toBeGreaterThan(0);
      for (const settings of onNodes) {
        const list = readSchoolList(settings.DATA_DIR);
        expect([...list.schools, ...list.removing].map((school) => school.sourcedId)).toEqual(['org-b']);
      }
    } finally {
      for (const folder of backups) rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The haproxy.cfg docs/districts.md prints: the fenced block that begins with `global`. */
function documentedConfiguration(): string {
  const blocks = [...readFileSync(DISTRICTS_PAGE, 'utf8').matchAll(/^```\n(global\n[\s\S]*?)^```/gm)];
  expect(blocks).toHaveLength(1);
  return blocks[0][1];
}

/** The lines that configure, without comments and indentation. */
const directives = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

describeWithTools(['haproxy', 'openssl'])('the haproxy.cfg of a district, as docs/districts.md prints it', () => {
  it('is deploy/haproxy.cfg rendered for two nodes, with TLS for the district and its schools’ hosts', () => {
    const values: Record<string, string> = {
      LISTEN: ':443 ssl crt /etc/haproxy/certs/ alpn http/1.1',
      ADMIN_SOCKET: '/run/haproxy/admin.sock',
      HEALTH_CHECK_PATH: '/readyz',
      UNAVAILABLE: '/etc/haproxy/school-unavailable',
      SERVERS: 'server node1 10.0.0.11:8080\nserver node2 10.0.0.12:8080',
    };
    const template = directives(readFileSync(HAPROXY_TEMPLATE, 'utf8')).join('\n');
    const rendered = template.replace(/{{(\w+)}}/g, (_, name: string) => values[name]);
    // The two lines of TLS the template's comment adds after the bind.
    const withTls = rendered.replace(
      `bind ${values.LISTEN}`,
      `bind ${values.LISTEN}\nbind :80\nhttp-request redirect scheme https unless { ssl_fc }`,
    );
    expect(directives(documentedConfiguration())).toEqual(withTls.split('\n'));
  });

  it('is accepted by haproxy, given a certificate and the balancer’s answers where it names them', () => {
    const folder = mkdtempSync(join(tmpdir(), 'school-haproxy-district-'));
    try {
      const certificates = join(folder, 'certs');
      mkdirSync(certificates);
      const key = join(folder, 'key.pem');
      const certificate = join(folder, 'cert.pem');
      const selfSigned = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=district'];
      execFileSync('openssl', [...selfSigned, '-keyout', key, '-out', certificate], { stdio: 'ignore' });
      writeFileSync(
        join(certificates, 'district.example.org.pem'),
        readFileSync(certificate, 'utf8') + readFileSync(key, 'utf8'),
      );
      let configuration = documentedConfiguration()
        .replaceAll('/etc/haproxy/certs/', `${certificates}/`)
        .replaceAll('/etc/haproxy/school-unavailable', UNAVAILABLE_ANSWERS)
        .replaceAll('/run/haproxy/admin.sock', join(folder, 'admin.sock'));
      // Dropping privileges needs root, as the balancer's tests render it.
      if (process.getuid?.() !== 0) configuration = configuration.replace(/^\s*(user|group|chroot) .*\n/gm, '');
      const file = join(folder, 'haproxy.cfg');
      writeFileSync(file, configuration);
      expect(() => execFileSync('haproxy', ['-c', '-q', '-f', file], { stdio: 'pipe' })).not.toThrow();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { faultEnvelope } from '../../src/bindings/soap/envelope-writer';
import { SOAP11, SOAP12 } from '../../src/bindings/soap/soap-version';
import { HEALTH_CHECK_PATH, renderHaproxyConfig, UNAVAILABLE_ANSWERS } from '../support/balancer';
import { describeWithTools } from '../support/tools';

/**
 * The files in deploy/ are what operators install: systemd finds nothing wrong in the unit, the
 * balancer's template renders into a configuration haproxy accepts, one server line per node, and
 * the balancer's answers when no node is ready are the ones a node gives, down to the bytes.
 */

const UNIT = resolve(__dirname, '..', '..', 'deploy', 'school-service.service');
const UNAVAILABLE = 'The service is not available at the moment; try again shortly.';

/** One of deploy/unavailable/'s files: a whole HTTP response, read as haproxy sends it. */
function answerFile(name: string): { statusLine: string; headers: Record<string, string>; body: string } {
  const text = readFileSync(join(UNAVAILABLE_ANSWERS, name), 'utf8');
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => line.split(': ', 2).map((part, index) => (index === 0 ? part.toLowerCase() : part))),
  );
  return { statusLine, headers, body };
}

describeWithTools(['systemd-analyze'])('deploy/school-service.service', () => {
  test('systemd-analyze verify has nothing to say about it', () => {
    const verified = spawnSync('systemd-analyze', ['verify', '--man=no', UNIT], { encoding: 'utf8' });
    expect([verified.status, verified.stdout, verified.stderr]).toEqual([0, '', '']);
  });
});

describe('deploy/school-service.service and the commands share one settings file', () => {
  test('every setting comes from the file the commands read; reload is SIGHUP; exit code 2 is not restarted', () => {
    const lines = readFileSync(UNIT, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines.filter((line) => line.startsWith('Environment='))).toEqual(['Environment=NODE_ENV=production']);
    expect(lines).toContain('EnvironmentFile=/etc/school-service/school-service.env');
    expect(lines).toContain('ExecReload=/bin/kill -HUP $MAINPID');
    expect(lines).toContain('RestartPreventExitStatus=2');
  });
});

describeWithTools(['haproxy'])('deploy/haproxy.cfg', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-deploy-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test('renders into a configuration haproxy accepts, checking every node with the health path', () => {
    const rendered = renderHaproxyConfig({
      listen: ':8443',
      adminSocket: join(folder, 'admin.sock'),
      nodes: [1, 2, 3].map((index) => ({ name: `node${index}`, address: `10.0.0.1${index}:8080` })),
    });
    const configuration = rendered.split('\n').filter((line) => !line.trimStart().startsWith('#'));
    expect(configuration.filter((line) => line.includes('{{'))).toEqual([]);
    expect(configuration.filter((line) => line.trimStart().startsWith('server '))).toEqual([
      '    server node1 10.0.0.11:8080',
      '    server node2 10.0.0.12:8080',
      '    server node3 10.0.0.13:8080',
    ]);
    expect(configuration).toContain(
      `    http-check send meth GET uri ${HEALTH_CHECK_PATH} ver HTTP/1.1 hdr Host school-service`,
    );
    const file = join(folder, 'haproxy.cfg');
    writeFileSync(file, rendered);
    expect(() => execFileSync('haproxy', ['-c', '-q', '-f', file], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('deploy/unavailable: what the balancer answers when no node is ready', () => {
  test('a SOAP 1.1 and a SOAP 1.2 caller get a Server fault as a node writes it', () => {
    for (const [name, version] of [
      ['soap11.http', SOAP11],
      ['soap12.http', SOAP12],
    ] as const) {
      const answer = answerFile(name);
      const body = faultEnvelope(version, 'receiver', `Server was unable to process request. ---> ${UNAVAILABLE}`);
      expect(answer).toEqual({
        statusLine: 'HTTP/1.1 500 Internal Server Error',
        headers: { 'content-type': version.contentType, 'content-length': String(Buffer.byteLength(body)) },
        body,
      });
    }
  });

  test("a JSON caller gets ASMX's error object, marked as an error", () => {
    const answer = answerFile('json.http');
    expect(answer.statusLine).toBe('HTTP/1.1 500 Internal Server Error');
    expect(answer.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      jsonerror: 'true',
      'content-length': String(Buffer.byteLength(answer.body)),
    });
    expect(JSON.parse(answer.body)).toEqual({
      Message: UNAVAILABLE,
      ExceptionType: 'System.InvalidOperationException',
    });
  });
});

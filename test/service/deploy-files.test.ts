import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HEALTH_CHECK_PATH, renderHaproxyConfig } from '../support/balancer';
import { describeWithTools } from '../support/tools';

/**
 * The files in deploy/ are what operators install: systemd finds nothing wrong in the unit, and
 * the balancer's template renders into a configuration haproxy accepts, one server line per node.
 */

const UNIT = resolve(__dirname, '..', '..', 'deploy', 'school-service.service');

describeWithTools(['systemd-analyze'])('deploy/school-service.service', () => {
  test('systemd-analyze verify has nothing to say about it', () => {
    const verified = spawnSync('systemd-analyze', ['verify', '--man=no', UNIT], { encoding: 'utf8' });
    expect([verified.status, verified.stdout, verified.stderr]).toEqual([0, '', '']);
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

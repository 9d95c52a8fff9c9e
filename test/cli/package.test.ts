import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../support/cli';
import { NS, soap11 } from '../support/soap';

/**
 * The release as a server installs it: `npm run package` builds school-service-VERSION-linux-x64.tar.gz;
 * unpacked with tar into an empty folder, it runs with `node` alone on the PATH (no npm, no
 * compiler, no registry): the service serves, and the command works with the unit's settings file.
 */

let work: string;
let release: string;
/** Only node's own folder on the PATH: nothing else of the machine is used. */
let nodeOnly: NodeJS.ProcessEnv;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'school-package-'));
  const built = spawnSync('npm', ['run', '--silent', 'package', '--', '--out', join(work, 'out')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`npm run package failed:\n${built.stdout}${built.stderr}`);
  const tarballs = readdirSync(join(work, 'out'));
  expect(tarballs).toEqual([expect.stringMatching(/^school-service-\d+\.\d+\.\d+-linux-x64\.tar\.gz$/)]);
  const install = join(work, 'opt');
  mkdirSync(install);
  execFileSync('tar', ['-xzf', join(work, 'out', tarballs[0] as string), '-C', install]);
  const [folder] = readdirSync(install);
  release = join(install, folder as string);
  nodeOnly = { PATH: dirname(process.execPath), HOME: work };
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the release tarball (npm run package)', () => {
  test('holds the built code and the production dependencies with their native modules, no development one', () => {
    expect(existsSync(join(release, 'dist', 'src', 'main.js'))).toBe(true);
    expect(existsSync(join(release, 'dist', 'src', 'cli.js'))).toBe(true);
    expect(existsSync(join(release, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(
      true,
    );
    expect(existsSync(join(release, 'deploy', 'school-service.service'))).toBe(true);
    for (const devOnly of ['typescript', 'tsx', 'jest', '@biomejs/biome', 'playwright-core', 'src']) {
      const where = devOnly === 'src' ? join(release, 'src') : join(release, 'node_modules', devOnly);
      expect([devOnly, existsSync(where)]).toEqual([devOnly, false]);
    }
  });

  test('unpacked into an empty folder, it serves with node alone and its command reads the settings file', async () => {
    const data = join(work, 'data');
    const envFile = join(work, 'school-service.env');
    writeFileSync(envFile, `DATA_DIR=${data}\nPORT=0\nHOST=127.0.0.1\nLOG_LEVEL=info\n`);
    const service: ChildProcess = spawn(process.execPath, [join(release, 'dist', 'src', 'main.js')], {
      cwd: work,
      env: { ...nodeOnly, SCHOOL_SERVICE_ENV: envFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolveListening, reject) => {
        let log = '';
        service.stderr?.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
          const listening = /listening\b[^\n]*?(http:\/\/127\.0\.0\.1:\d+)/.exec(log);
          if (listening) resolveListening(listening[1] as string);
        });
        service.once('exit', (code) => reject(new Error(`the service exited with ${code}:\n${log}`)));
      });
      const hello = await soap11(`${url}/GetStudentsNote.asmx`, `<HelloWorld xmlns="${NS}" />`, `"${NS}HelloWorld"`);
      expect([hello.status, hello.text]).toEqual([
        200,
        expect.stringContaining('<HelloWorldResult>Hello World</HelloWorldResult>'),
      ]);
      const listed = spawnSync(
        process.execPath,
        [join(release, 'dist', 'src', 'cli.js'), '--env', envFile, 'delivery-status', '--json'],
        {
          cwd: work,
          env: nodeOnly,
          encoding: 'utf8',
        },
      );
      expect([listed.status, JSON.parse(listed.stdout)]).toEqual([0, { queued: 0, retrying: 0, sent: 0, failed: 0 }]);
      expect(listed.stderr).toContain(`store: SQLite ${join(data, 'school.sqlite')}`);
      const exited = new Promise<number | null>((resolveExit) => service.once('exit', resolveExit));
      service.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (service.exitCode === null && service.signalCode === null) service.kill('SIGKILL');
    }
  });
});

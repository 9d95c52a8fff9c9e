import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/cli';
import { NS, soap11 } from '../support/soap';

/**
 * The service as an operator installs it: `npm ci && npm run build && npm prune --omit=dev`, then
 * `npx school-service ...` and `npm start`, with none of the development dependencies left. The
 * copy reuses this checkout's installed packages (hard links, so that nothing is downloaded or
 * compiled again); npm prune then removes the development ones from the copy alone.
 */
const PROJECT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'wsdl'];

let copy: string;
let environment: NodeJS.ProcessEnv;

function run(command: string, args: readonly string[]): string {
  return execFileSync(command, args, { cwd: copy, env: environment, encoding: 'utf8', stdio: 'pipe' });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'school-production-'));
  for (const file of PROJECT_FILES) cpSync(join(ROOT, file), join(copy, file), { recursive: true });
  // Hard links: a new file, not a write into a shared one, is what npm makes of any it changes. The
  // folder the link points to when node_modules is a link (a worktree sharing another's packages):
  // copying the link itself would have npm prune the shared folder.
  const installed = realpathSync(join(ROOT, 'node_modules'));
  execFileSync('cp', ['-al', installed, join(copy, 'node_modules')]);
  if (lstatSync(join(copy, 'node_modules')).isSymbolicLink()) throw new Error('node_modules was copied as a link');
  // npm's record of the tree, a cache it rewrites on prune: a file of the copy's own, not a link.
  const record = join(copy, 'node_modules', '.package-lock.json');
  if (existsSync(record)) {
    rmSync(record);
    cpSync(join(installed, '.package-lock.json'), record);
  }
  environment = {
    ...process.env,
    // As on a server: no node_modules/.bin of this checkout (npx and npm put theirs on the PATH of the tests).
    PATH: (process.env.PATH ?? '')
      .split(':')
      .filter((entry) => !entry.includes('node_modules'))
      .join(':'),
    // npx installs the package's own bin into its cache: a cache of the test's own.
    npm_config_cache: join(copy, '.npm-cache'),
    npm_config_update_notifier: 'false',
    DATA_DIR: join(copy, 'data'),
    DATABASE_URL: '',
    LOG_LEVEL: 'info',
  };
  run('npm', ['run', 'build']);
  run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund']);
}, 120_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('a production install (npm ci, npm run build, npm prune --omit=dev)', () => {
  test('holds no development dependency', () => {
    for (const devOnly of ['typescript', 'tsx', 'jest', '@biomejs/biome', 'playwright-core']) {
      expect([devOnly, existsSync(join(copy, 'node_modules', devOnly))]).toEqual([devOnly, false]);
    }
  });

  test('npx school-service runs its commands', () => {
    expect(run('npx', ['school-service', '--help'])).toContain('demo-data');
    expect(run('npx', ['school-service', 'demo-data', '--students', '20', '--seed', '3'])).toMatch(
      /^Loaded a demo school into .* 20 students/,
    );
    expect(JSON.parse(run('npx', ['school-service', 'delivery-status', '--json']))).toEqual({
      queued: 0,
      retrying: 0,
      sent: 0,
      failed: 0,
    });
  });

  test('npm start serves the SOAP and HTTP bindings and stops on SIGTERM', async () => {
    const service: ChildProcess = spawn('npm', ['start'], {
      cwd: copy,
      env: { ...environment, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'off' },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    try {
      // The service's own process logs its address and pid; npm start runs it as a child.
      const { url, pid } = await new Promise<{ url: string; pid: number }>((resolveListening, reject) => {
        let log = '';
        service.stderr?.on('data', (chunk: Buffer) => {
          log += chunk.toString('utf8');
          const listening = /"message":"listening","url":"([^"]+)".*"pid":(\d+)/.exec(log);
          if (listening) resolveListening({ url: listening[1], pid: Number(listening[2]) });
        });
        service.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${log}`)));
      });
      const soap = await soap11(`${url}/GetStudentsNote.asmx`, `<HelloWorld xmlns="${NS}" />`, `"${NS}HelloWorld"`);
      expect(soap.status).toBe(200);
      expect(soap.text).toContain('<HelloWorldResult>Hello World</HelloWorldResult>');
      const get = await fetch(`${url}/GetStudentsNote.asmx/HelloWorld`);
      expect(await get.text()).toContain('>Hello World</string>');
      const exited = new Promise<number | null>((resolveExit) => service.once('exit', resolveExit));
      // As systemd stops it: SIGTERM to the service; npm start ends with the service's exit code.
      process.kill(pid, 'SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (service.exitCode === null && service.signalCode === null) process.kill(-(service.pid as number), 'SIGKILL');
    }
  });
});

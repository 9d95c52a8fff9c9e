import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { TEST_OUTBOX_KEY } from './test-key';

/** The project's top folder, where the command runs from. */
export const ROOT = resolve(__dirname, '..', '..');

/** node's arguments to run `school-service ARGS...` from the source, as the built bin runs it from dist/. */
export function cliArguments(...args: string[]): string[] {
  return ['--import', 'tsx', join('src', 'cli.ts'), ...args];
}

/**
 * node's arguments and environment to run `school-service ARGS...` from the source with any folder
 * as the working folder, as an operator runs the installed command from wherever they are.
 */
export function cliFromAnywhere(...args: string[]): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--import', require.resolve('tsx', { paths: [ROOT] }), resolve(ROOT, 'src', 'cli.ts'), ...args],
    env: { TSX_TSCONFIG_PATH: resolve(ROOT, 'tsconfig.json') },
  };
}

/** What a run of the command gave: its exit code and its output. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment a test runs the command in: the test's own, on the embedded store unless
 * `settings` names a database, with the test key, logging warnings alone; `settings` on top.
 */
function commandEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: '', OUTBOX_KEY: TEST_OUTBOX_KEY, LOG_LEVEL: 'warn', ...settings };
}

/** Runs `school-service ARGS...` from the source as an operator does, with `settings`, and waits for it to end. */
export function runCommand(settings: Record<string, string>, args: readonly string[]): CliRun {
  return spawnSync(process.execPath, cliArguments(...args), {
    cwd: ROOT,
    env: commandEnvironment(settings),
    encoding: 'utf8',
  });
}

/** The same, as a process of its own while this one goes on: a service in this process answers meanwhile. */
export function runCommandAside(settings: Record<string, string>, args: readonly string[]): Promise<CliRun> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, cliArguments(...args), { cwd: ROOT, env: commandEnvironment(settings) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', failed);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

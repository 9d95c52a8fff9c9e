import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The compiled service every benchmark measures, so that tsx's loader is not on the measured path. */
export const ROOT = resolve(__dirname, '..', '..');
export const SERVICE_ENTRY = join(ROOT, 'dist', 'src', 'main.js');
/** The compiled school-service command. */
export const CLI_ENTRY = join(ROOT, 'dist', 'src', 'cli.js');

/** Compiles src/ into dist/src/ with the project's options; a build with errors stops the benchmark. */
export function buildService(): void {
  console.log('Building the service (tsc) ...');
  const result = spawnSync('npx', ['tsc', '-p', 'scripts/benchmark/tsconfig.service.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('the build failed; fix it, or measure the existing dist/ with --no-build');
}

/** wrk from Debian and a built service are what every benchmark needs. */
export function checkBenchmarkTools(): void {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed (apt-get install wrk)');
  if (!existsSync(SERVICE_ENTRY)) throw new Error(`${SERVICE_ENTRY} is missing; run npm run build`);
}

/**
 * The environment the compiled service runs with in a benchmark: on loopback, on the port given, on
 * an embedded store of its own.
 */
export function benchmarkServiceEnvironment(
  port: number,
  dataDirectory: string,
  settings: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDirectory,
    DEMO_DATA: 'off',
    DATABASE_URL: '',
    ...settings,
  };
}

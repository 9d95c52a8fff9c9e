import { execFile } from 'node:child_process';
import { ROOT, cliArguments } from './cli';
import { TEST_OUTBOX_KEY } from './test-key';

/**
 * Runs `school-service ARGS` as the operator does, in a process of its own, on the store the
 * settings name (and nothing of the test's environment's store settings); resolves with its exit
 * code and everything it printed.
 */
export function runStoreCli(
  settings: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      cliArguments(...args),
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: '',
          DATA_DIR: '',
          OUTBOX_KEY: TEST_OUTBOX_KEY,
          LOG_LEVEL: 'silent',
          ...settings,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

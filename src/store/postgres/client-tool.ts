import { spawn } from 'node:child_process';
import { withoutPassword } from './url';

/** Enough of a tool's standard error to say why it failed, however much it writes. */
const MAX_ERROR_CHARACTERS = 2_000;

/**
 * Runs one of PostgreSQL's client tools (pg_dump, pg_restore; Debian: postgresql-client, of the
 * server's major version or newer) on the database of `databaseUrl`. The password goes to the tool
 * in its environment, never on its command line, where any user of the machine could read it.
 */
export function runPostgresTool(tool: string, args: readonly string[], databaseUrl: string): Promise<void> {
  const password = decodeURIComponent(new URL(databaseUrl).password);
  const child = spawn(tool, [...args, '--dbname', withoutPassword(databaseUrl)], {
    env: password === '' ? process.env : { ...process.env, PGPASSWORD: password },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    errors = (errors + chunk).slice(0, MAX_ERROR_CHARACTERS);
  });
  return new Promise((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(`${tool} is not installed (Debian: apt-get install postgresql-client)`)
          : error,
      ),
    );
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit code ${code}): ${errors.trim()}`));
    });
  });
}

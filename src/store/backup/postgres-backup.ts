import { spawn } from 'node:child_process';
import { withoutPassword } from '../open-store';

/** Enough of pg_dump's standard error to say why it failed, however much it writes. */
const MAX_ERROR_CHARACTERS = 2_000;

/**
 * Runs pg_dump (Debian: postgresql-client, of the server's major version or newer) into `target`
 * in its custom format, which pg_restore reads. pg_dump reads inside one transaction, so the dump
 * is one consistent moment of the database while the service goes on serving. The password goes
 * to pg_dump in its environment, never on its command line, where any user of the machine could
 * read it.
 */
export function backupPostgres(databaseUrl: string, target: string): Promise<void> {
  const password = decodeURIComponent(new URL(databaseUrl).password);
  const dump = spawn('pg_dump', ['--format=custom', '--file', target, '--dbname', withoutPassword(databaseUrl)], {
    env: password === '' ? process.env : { ...process.env, PGPASSWORD: password },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  dump.stderr.setEncoding('utf8');
  dump.stderr.on('data', (chunk: string) => {
    errors = (errors + chunk).slice(0, MAX_ERROR_CHARACTERS);
  });
  return new Promise((resolve, reject) => {
    dump.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('pg_dump is not installed (Debian: apt-get install postgresql-client)')
          : error,
      ),
    );
    dump.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`pg_dump failed (exit code ${code}): ${errors.trim()}`));
    });
  });
}

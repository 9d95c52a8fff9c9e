import { runPostgresTool } from './client-tool';

/**
 * Runs pg_dump into `target` in its custom format, which pg_restore reads. pg_dump reads inside one
 * transaction, so the dump is one consistent moment of the database while the service goes on
 * serving.
 */
export function backupPostgres(databaseUrl: string, target: string): Promise<void> {
  return runPostgresTool('pg_dump', ['--format=custom', '--file', target], databaseUrl);
}

/**
 * Restores a pg_dump custom-format backup into the database of `databaseUrl`, in one transaction:
 * the objects the backup holds are dropped first where they exist (the schema a new store made for
 * itself), then created and filled as the backup has them.
 */
export function restorePostgres(databaseUrl: string, backup: string): Promise<void> {
  return runPostgresTool(
    'pg_restore',
    ['--clean', '--if-exists', '--no-owner', '--exit-on-error', '--single-transaction', backup],
    databaseUrl,
  );
}

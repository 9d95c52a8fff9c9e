import { runPostgresTool } from './client-tool';
import { SCHOOL_SCHEMAS_PATTERN, schoolSchemaOf } from './schema-per-school';

/**
 * Runs pg_dump into `target` in its custom format, which pg_restore reads. pg_dump reads inside one
 * transaction, so the dump is one consistent moment of the database while the service goes on
 * serving. A school of a district is its schema alone; the deployment's own store is the database
 * without the schools' schemas, so that neither backup holds another school's records.
 */
export function backupPostgres(databaseUrl: string, target: string): Promise<void> {
  const schema = schoolSchemaOf(databaseUrl);
  const only = schema === undefined ? `--exclude-schema=${SCHOOL_SCHEMAS_PATTERN}` : `--schema=${schema}`;
  return runPostgresTool('pg_dump', ['--format=custom', only, '--file', target], databaseUrl);
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

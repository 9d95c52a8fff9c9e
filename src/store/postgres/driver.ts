import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import { log } from '../../lib/log';
import type { EngineDriver, EngineSettings, OpenedEngine, OpenOptions } from '../engine-driver';
import type { Database } from '../schema';
import { backupPostgres, restorePostgres } from './backup';
import { watchPostgresChannel } from './change-watch';
import { postgresConnection } from './connection';
import { postgresDirectReader } from './direct-reader';
import { postgresEngine } from './engine';
import { postgresStoreExists } from './presence';
import { postgresSchoolStores } from './schema-per-school';
import { withoutPassword } from './url';

// COUNT(*) is a bigint in PostgreSQL and pg returns it as text; counts here are far below 2^53.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

/** The settings' database URL: this driver is chosen only when there is one. */
function urlOf(settings: EngineSettings): string {
  if (!settings.databaseUrl) throw new Error('PostgreSQL needs DATABASE_URL');
  return settings.databaseUrl;
}

function openPostgres(settings: EngineSettings, { queryTook, queryLog, poolSize = 10 }: OpenOptions): OpenedEngine {
  const databaseUrl = urlOf(settings);
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  // A connection the server drops (a restart, a failover) is logged, and the pool opens a new one
  // for the next query; the query in flight on it fails on its own. An 'error' event nobody
  // listens to would stop the process, and pg emits one for a client held between statements.
  const lost = (error: Error) => log.warn('a PostgreSQL connection was lost', { error: error.message });
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queryLog });
  return {
    db,
    location: withoutPassword(databaseUrl),
    connection: postgresConnection(pool, db),
    direct: postgresDirectReader(pool, queryTook),
    watch: (channel) => (onChange) => watchPostgresChannel(databaseUrl, channel, onChange),
  };
}

/** A PostgreSQL database (DATABASE_URL), which several nodes of the service may share. */
export const postgresDriver: EngineDriver = {
  engine: postgresEngine,
  open: openPostgres,
  location: (settings) => withoutPassword(urlOf(settings)),
  exists: (settings) => postgresStoreExists(urlOf(settings)),
  setting: () => 'DATABASE_URL',
  // The database lives elsewhere: no file of this machine holds it.
  liveFiles: () => [],
  backups: {
    kind: 'pg_dump custom format',
    signature: Buffer.from('PGDMP', 'latin1'),
    write: (settings, target) => backupPostgres(urlOf(settings), target),
    restoreInPlace: (settings, file) => restorePostgres(urlOf(settings), file),
  },
  schools: postgresSchoolStores,
};

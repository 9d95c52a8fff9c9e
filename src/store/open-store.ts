import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, type KyselyConfig, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import { log } from '../lib/log';
import { makePrivate, PRIVATE_FOLDER_MODE, privateFile } from '../lib/private-files';
import type { Engine } from './engine';
import { migrateToLatest } from './migrate';
import { REFERENCE_CHANNEL } from './migrations/007-reference-versions';
import { watchPostgresChannel } from './postgres-change-watch';
import { ReferenceData } from './reference-data';
import { SqliteDialectWithLiteralLimits } from './sqlite-dialect';
import { withStatementCache } from './statement-cache';
import { postgresDirectReader } from './postgres-direct-reader';
import { sqliteDirectReader } from './sqlite-direct-reader';
import type { DirectReader } from './session';
import type { Database } from './schema';

export interface StoreSettings {
  /** postgres://... selects PostgreSQL; undefined selects the embedded SQLite file. */
  readonly databaseUrl: string | undefined;
  readonly dataDirectory: string;
  /** Told how long each query took, in ms (the service's figures); nothing is measured without it. */
  readonly queryTook?: (ms: number) => void;
}

/** The driver underneath kysely, for the bulk loads kysely would make slow. */
export type Connection = { engine: 'sqlite'; database: BetterSqlite3.Database } | { engine: 'postgres'; pool: Pool };

export interface Store {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  readonly connection: Connection;
  /** Where the data lives, for logs: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  readonly reference: ReferenceData;
  readonly direct: DirectReader | undefined;
  close(): Promise<void>;
}

export const SQLITE_FILE_NAME = 'school.sqlite';

// COUNT(*) is a bigint in PostgreSQL and pg returns it as text; counts here are far below 2^53.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

interface Opened {
  db: Kysely<Database>;
  direct?: DirectReader;
  location: string;
  connection: Connection;
}

/** The embedded store's file in the data folder. */
export function sqliteFileOf(dataDirectory: string): string {
  return join(dataDirectory, SQLITE_FILE_NAME);
}

/** The PostgreSQL URL without its password, fit for logs and messages. */
export function withoutPassword(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.password = '';
  return url.toString();
}

function openSqlite(
  dataDirectory: string,
  queryTook: StoreSettings['queryTook'],
  queryLog: KyselyConfig['log'],
): Opened {
  mkdirSync(dataDirectory, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const location = sqliteFileOf(dataDirectory);
  // SQLite gives its WAL and shared-memory files the mode of the store's file: private, all three.
  privateFile(location);
  for (const companion of ['-wal', '-shm']) makePrivate(`${location}${companion}`);
  const database = new BetterSqlite3(location);
  // WAL lets readers run while the outbox worker writes; the rest make writes durable and safe.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const statements = withStatementCache(database);
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialectWithLiteralLimits({ database: statements }), log: queryLog }),
    location,
    connection: { engine: 'sqlite', database },
    direct: sqliteDirectReader(database, statements, queryTook),
  };
}

function openPostgres(
  databaseUrl: string,
  queryTook: StoreSettings['queryTook'],
  queryLog: KyselyConfig['log'],
  poolSize = 10,
): Opened {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  // A connection the server drops (a restart, a failover) is logged, and the pool opens a new one
  // for the next query; the query in flight on it fails on its own. An 'error' event nobody
  // listens to would stop the process, and pg emits one for a client held between statements.
  const lost = (error: Error) => log.warn('a PostgreSQL connection was lost', { error: error.message });
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return {
    db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queryLog }),
    location: withoutPassword(databaseUrl),
    connection: { engine: 'postgres', pool },
    direct: postgresDirectReader(pool, queryTook),
  };
}

/** Opens the store and brings its schema up to date; a new SQLite file is created on the way. */
export async function openStore(settings: StoreSettings): Promise<Store> {
  const { queryTook } = settings;
  // Failed queries count too: a query that waits for a store that went away is the slow one to see.
  const queryLog: KyselyConfig['log'] = queryTook ? (event) => queryTook(event.queryDurationMillis) : undefined;
  const { db, location, connection, direct } = settings.databaseUrl
    ? openPostgres(settings.databaseUrl, queryTook, queryLog)
    : openSqlite(settings.dataDirectory, queryTook, queryLog);
  try {
    await migrateToLatest(db as Kysely<unknown>, connection.engine);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const engine = connection.engine;
  const databaseUrl = settings.databaseUrl;
  const reference = new ReferenceData(
    { db, engine, direct },
    databaseUrl ? (onChange) => watchPostgresChannel(databaseUrl, REFERENCE_CHANNEL, onChange) : undefined,
  );
  return {
    db,
    engine,
    connection,
    location,
    reference,
    direct,
    close: async () => {
      await reference.close();
      await db.destroy();
    },
  };
}

/** A connection of its own to a store another has opened (and migrated): a writer thread's. */
export interface StoreConnection {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  readonly connection: Connection;
  close(): Promise<void>;
}

/** Opens one more connection to the store, without migrating it or keeping its reference data. */
export function openStoreConnection(settings: StoreSettings): StoreConnection {
  const { db, connection } = settings.databaseUrl
    ? openPostgres(settings.databaseUrl, undefined, undefined, 1)
    : openSqlite(settings.dataDirectory, undefined, undefined);
  return { db, engine: connection.engine, connection, close: () => db.destroy() };
}

import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely } from 'kysely';
import { makePrivate, PRIVATE_FOLDER_MODE, privateFile } from '../../lib/private-files';
import type { EngineDriver, EngineSettings, OpenedEngine, OpenOptions } from '../engine-driver';
import type { Database } from '../schema';
import { backupSqlite } from './backup';
import { sqliteConnection } from './connection';
import { sqliteDirectReader } from './direct-reader';
import { sqliteEngine } from './engine';
import { SQLITE_FILE_NAME, sqliteFileOf, sqliteFilesOf } from './files';
import { SqliteDialectWithLiteralLimits } from './kysely-dialect';
import { sqliteSchoolStores } from './school-files';
import { withStatementCache } from './statement-cache';

function openSqlite({ dataDirectory }: EngineSettings, { queryTook, queryLog }: OpenOptions): OpenedEngine {
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
    connection: sqliteConnection(database),
    direct: sqliteDirectReader(database, statements, queryTook),
  };
}

/** The embedded store: one SQLite file in DATA_DIR, opened by better-sqlite3 in WAL mode. */
export const sqliteDriver: EngineDriver = {
  engine: sqliteEngine,
  open: openSqlite,
  location: ({ dataDirectory }) => resolve(sqliteFileOf(dataDirectory)),
  exists: async ({ dataDirectory }) => existsSync(sqliteFileOf(dataDirectory)),
  setting: ({ dataDirectory }) => `DATA_DIR=${dataDirectory}`,
  liveFiles: ({ dataDirectory }) => sqliteFilesOf(dataDirectory),
  backups: {
    kind: 'SQLite online backup, integrity checked',
    signature: Buffer.from('SQLite format 3\0', 'latin1'),
    write: ({ dataDirectory }, target) => backupSqlite(sqliteFileOf(dataDirectory), target),
    // A backup is a whole store: read from a private copy, so that the backup itself is never changed.
    readAs: (file, folder) => {
      const copy = resolve(folder, SQLITE_FILE_NAME);
      privateFile(copy);
      copyFileSync(file, copy);
      return { databaseUrl: undefined, dataDirectory: folder };
    },
  },
  schools: sqliteSchoolStores,
};

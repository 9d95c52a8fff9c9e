import { renameSync, rmSync, statSync } from 'node:fs';
import { privateFile } from '../../lib/private-files';
import type { Engine } from '../engine';
import { sqliteFileOf, type StoreSettings } from '../open-store';
import { backupPostgres } from './postgres-backup';
import { backupSqlite } from './sqlite-backup';

export interface Backup {
  readonly engine: Engine;
  readonly bytes: number;
}

/**
 * Backs up the store the settings name into the file `target`: SQLite with its online backup API,
 * PostgreSQL with pg_dump's custom format. The copy is written under another name beside the
 * target and renamed once complete, so that a file at the target is always a whole backup.
 */
export async function backupStore(settings: StoreSettings, target: string): Promise<Backup> {
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    // Made private before anything is written into it: SQLite and pg_dump keep the mode of a file that exists.
    privateFile(partial);
    if (settings.databaseUrl) await backupPostgres(settings.databaseUrl, partial);
    else await backupSqlite(sqliteFileOf(settings.dataDirectory), partial);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { engine: settings.databaseUrl ? 'postgres' : 'sqlite', bytes: statSync(target).size };
}

import { renameSync, rmSync, statSync } from 'node:fs';
import { privateFile } from '../../lib/private-files';
import type { EngineSettings } from '../engine-driver';
import { engineDriverOf } from '../engines';

export interface Backup {
  /** What the backup is, for the operator: how the engine made and checked it. */
  readonly kind: string;
  readonly bytes: number;
}

/**
 * Backs up the store the settings name into the file `target`, the engine's way (SQLite with its
 * online backup API, PostgreSQL with pg_dump's custom format). The copy is written under another
 * name beside the target and renamed once complete, so that a file at the target is always a
 * whole backup.
 */
export async function backupStore(settings: EngineSettings, target: string): Promise<Backup> {
  const { backups } = engineDriverOf(settings);
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    // Made private before anything is written into it: SQLite and pg_dump keep the mode of a file that exists.
    privateFile(partial);
    await backups.write(settings, partial);
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { kind: backups.kind, bytes: statSync(target).size };
}

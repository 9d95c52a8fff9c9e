import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineDriver } from '../engine-driver';
import { ENGINE_DRIVERS } from '../engines';

/** A backup file found where backups are kept, and when it was written. */
export interface FoundBackup {
  readonly path: string;
  readonly writtenAt: string;
  /** The engine that wrote it, by its short name. */
  readonly engine: string;
}

/** The engine whose backups begin as the file at `path` does, if any. */
export function backupEngineOf(path: string): EngineDriver | undefined {
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    const begins = (signature: Buffer) =>
      read >= signature.length && head.subarray(0, signature.length).equals(signature);
    return ENGINE_DRIVERS.find(({ backups }) => begins(backups.signature));
  } finally {
    closeSync(fd);
  }
}

/**
 * The backups in the given folders (not their subfolders), recognised by their first bytes, so
 * that a renamed file is found too; the live store's own files are left out. The service does not
 * keep a list of the backups it made: `school-service backup` writes wherever it is told, and the
 * documentation asks operators to keep them in DATA_DIR or BACKUP_DIR.
 */
export function findBackups(folders: readonly string[], liveFiles: readonly string[]): FoundBackup[] {
  const live = new Set(liveFiles.map((file) => resolve(file)));
  const found: FoundBackup[] = [];
  for (const folder of new Set(folders.map((name) => resolve(name)))) {
    if (!existsSync(folder)) continue;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (!entry.isFile() || live.has(path)) continue;
      const engine = backupEngineOf(path)?.engine.name;
      if (engine) found.push({ path, engine, writtenAt: statSync(path).mtime.toISOString() });
    }
  }
  return found.sort((a, b) => a.writtenAt.localeCompare(b.writtenAt));
}

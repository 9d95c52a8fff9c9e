import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A backup file found where backups are kept, and when it was written. */
export interface FoundBackup {
  readonly path: string;
  readonly writtenAt: string;
  readonly engine: 'sqlite' | 'postgres';
}

/** How each kind of backup file begins: an SQLite database file, and pg_dump's custom format. */
const SIGNATURES = [
  { engine: 'sqlite', bytes: Buffer.from('SQLite format 3\0', 'latin1') },
  { engine: 'postgres', bytes: Buffer.from('PGDMP', 'latin1') },
] as const;

function signatureOf(path: string): FoundBackup['engine'] | undefined {
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, head, 0, head.length, 0);
    return SIGNATURES.find(({ bytes }) => read >= bytes.length && head.subarray(0, bytes.length).equals(bytes))?.engine;
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
      const engine = signatureOf(path);
      if (engine) found.push({ path, engine, writtenAt: statSync(path).mtime.toISOString() });
    }
  }
  return found.sort((a, b) => a.writtenAt.localeCompare(b.writtenAt));
}

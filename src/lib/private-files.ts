import { chmodSync, existsSync, writeFileSync } from 'node:fs';

/**
 * The files that hold the school's data (the SQLite store and its WAL and shared-memory files,
 * backups, exports, the key) hold children's records and callers' hashes: readable and writable
 * by the service's user alone, whatever the umask of whoever runs the service or a command.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_FOLDER_MODE = 0o700;

/**
 * Makes every file and folder this process creates from now on private (umask 077), including
 * those a library or a child process (pg_dump) creates; called first by the service and the command.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/**
 * Creates `path` empty and private if it is not there, and makes it private if it is: a store or
 * backup made by an older version, or under a wide umask, is closed on its next use. A file of
 * another user's is left as it is (only its owner may change its mode).
 */
export function privateFile(path: string): void {
  if (!existsSync(path)) {
    try {
      writeFileSync(path, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  makePrivate(path);
}

/** Narrows an existing file to its owner, when this process may; nothing when it is not there. */
export function makePrivate(path: string): void {
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

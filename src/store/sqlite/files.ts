import { join } from 'node:path';

/** The embedded store's file in the data folder. */
export const SQLITE_FILE_NAME = 'school.sqlite';

/** The embedded store's file in the data folder. */
export function sqliteFileOf(dataDirectory: string): string {
  return join(dataDirectory, SQLITE_FILE_NAME);
}

/** The store's file and the two SQLite keeps beside it in WAL mode. */
export function sqliteFilesOf(dataDirectory: string): string[] {
  return ['', '-wal', '-shm'].map((suffix) => `${sqliteFileOf(dataDirectory)}${suffix}`);
}

import type BetterSqlite3 from 'better-sqlite3';
import type { FilesScrubbed } from '../engine-driver';

/**
 * With secure_delete, every page freed or rewritten is overwritten with zeros; VACUUM rebuilds the
 * file without free pages (removing copies from before, such as a row an import rewrote while
 * secure_delete was off), and wal_checkpoint(TRUNCATE) copies the log into the file and empties it
 * (a reader holding an old snapshot makes it wait: it is retried once).
 *
 * VACUUM is safe while other processes serve from the file: SQLite coordinates them by POSIX
 * advisory locks on the file and its -shm. Those locks belong to a process, and any close() of the
 * file in that process drops them all (https://sqlite.org/howtocorrupt.html, section 2.2), so no
 * process serving the store may open its files by other means than SQLite: a process that read
 * them with fs while serving let another's VACUUM rebuild the file under its connection, which
 * then read it as malformed and corrupted it on closing.
 */
export async function scrubSqliteFiles(
  database: BetterSqlite3.Database,
  erase: () => Promise<void>,
): Promise<FilesScrubbed> {
  database.pragma('secure_delete = ON');
  await erase();
  database.exec('VACUUM');
  const done = ['secure_delete', 'VACUUM'];
  const refused: string[] = [];
  const busy = () => (database.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy !== 0;
  if (busy()) await new Promise((resolve) => setTimeout(resolve, 200));
  if (busy()) refused.push('wal_checkpoint(TRUNCATE): a reader held the log; run the erasure again');
  else done.push('wal_checkpoint(TRUNCATE)');
  return { done, refused };
}

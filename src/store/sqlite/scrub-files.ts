import type BetterSqlite3 from 'better-sqlite3';
import type { FilesScrubbed } from '../engine-driver';

/**
 * A VACUUM run by one process while another reads the same SQLite file has the other's connection
 * report the file as malformed (seen with the service's cached statements), so it is run only when
 * no other process serves from the store. Without it, secure_delete has still zeroed what the
 * erasure deleted; what it leaves are copies from before (a row an import rewrote), which the next
 * erasure with the service stopped, or `VACUUM` by hand, removes.
 */
const VACUUM_LEFT = 'VACUUM: left for when no process serves from the store (the service runs)';

/**
 * With secure_delete, every page freed or rewritten is overwritten with zeros; VACUUM rebuilds the
 * file without free pages, and wal_checkpoint(TRUNCATE) copies the log into the file and empties it
 * (a reader holding an old snapshot makes it wait: it is retried once).
 */
export async function scrubSqliteFiles(
  database: BetterSqlite3.Database,
  erase: () => Promise<void>,
  othersServing: () => Promise<boolean>,
): Promise<FilesScrubbed> {
  database.pragma('secure_delete = ON');
  await erase();
  const done = ['secure_delete'];
  const refused: string[] = [];
  if (await othersServing()) refused.push(VACUUM_LEFT);
  else {
    database.exec('VACUUM');
    done.push('VACUUM');
  }
  const busy = () => (database.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy !== 0;
  if (busy()) await new Promise((resolve) => setTimeout(resolve, 200));
  if (busy()) refused.push('wal_checkpoint(TRUNCATE): a reader held the log; run the erasure again');
  else done.push('wal_checkpoint(TRUNCATE)');
  return { done, refused };
}

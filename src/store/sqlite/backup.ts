import BetterSqlite3 from 'better-sqlite3';

/**
 * SQLite's online backup API copies pages in steps, and starts again from the first page whenever
 * another connection writes between two steps. A serving store is written all the time (the audit
 * trail, the outbox, rate counts), so small steps might never finish; one step copies every page
 * inside one read transaction, which is one consistent moment of the store, and in WAL mode the
 * service goes on writing meanwhile.
 */
const EVERY_PAGE_IN_ONE_STEP = 0x7fffffff;

/** Copies the SQLite store at `file` into `target` while other processes may go on using it, then checks the copy. */
export async function backupSqlite(file: string, target: string): Promise<void> {
  const source = new BetterSqlite3(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(target, { progress: () => EVERY_PAGE_IN_ONE_STEP });
  } finally {
    source.close();
  }
  const copy = new BetterSqlite3(target, { fileMustExist: true });
  try {
    // The copy inherits WAL mode; a rollback journal makes it one self-contained file (the service sets WAL again
    // when it opens a restored store).
    copy.pragma('journal_mode = DELETE');
    const verdict = copy.pragma('integrity_check', { simple: true });
    if (verdict !== 'ok') throw new Error(`the copy failed SQLite's integrity check: ${String(verdict)}`);
  } finally {
    copy.close();
  }
}

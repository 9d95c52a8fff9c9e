import { copyFileSync, mkdtempSync, openSync, readSync, closeSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { privateFile } from '../lib/private-files';
import { restorePostgres } from '../store/backup/postgres-backup';
import { copyStore, holdingsText, storeHoldings, TargetNotEmptyError } from '../store/copy/copy-store';
import { openStore, SQLITE_FILE_NAME, type Store } from '../store/open-store';
import { describeStoreKey, recordedFingerprint } from '../store/store-key';
import { storeExists, storeLocation } from '../store/store-presence';
import { keySettingsOf, storeBanner } from './configured-store';
import { countsLine, keyNote } from './copy-store';
import { UsageError } from './usage-error';

type BackupFormat = 'sqlite' | 'pg_dump';

/** A backup's format, by its first bytes: an SQLite file, or pg_dump's custom format. */
function backupFormat(path: string): BackupFormat {
  const head = Buffer.alloc(16);
  const file = openSync(path, 'r');
  try {
    readSync(file, head, 0, head.length, 0);
  } finally {
    closeSync(file);
  }
  if (head.toString('latin1').startsWith('SQLite format 3\0')) return 'sqlite';
  if (head.toString('latin1').startsWith('PGDMP')) return 'pg_dump';
  throw new UsageError(`${path} is neither an SQLite backup nor a pg_dump custom-format backup`);
}

function refusal(location: string, holding: string): UsageError {
  return new UsageError(`${location} is not empty (it holds ${holding}): pass --replace to replace what it holds`);
}

/** An SQLite backup, opened from a private copy (so that the backup itself is never changed), into any store. */
async function restoreSqliteBackup(backup: string, target: Store, replace: boolean) {
  const folder = mkdtempSync(join(tmpdir(), 'school-restore-'));
  try {
    const copy = join(folder, SQLITE_FILE_NAME);
    privateFile(copy);
    copyFileSync(backup, copy);
    // Opening migrates a backup of an older version to this one's schema, in the copy.
    const source = await openStore({ databaseUrl: undefined, dataDirectory: folder });
    try {
      return await copyStore(source, target, { replace });
    } finally {
      await source.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * school-service restore BACKUP [--replace]: restores a backup made by `backup` into the configured
 * store, which must be empty (or is replaced with --replace). An SQLite backup restores into
 * either engine; a pg_dump backup into PostgreSQL, with pg_restore.
 */
export async function restoreCommand(path: string, options: { readonly replace: boolean }): Promise<void> {
  const backup = resolve(path);
  if (!existsSync(backup)) throw new UsageError(`there is no backup at ${backup}`);
  const format = backupFormat(backup);
  const config = loadConfig();
  const where = storeLocation(config);
  if (format === 'pg_dump' && !config.databaseUrl) {
    throw new UsageError('a pg_dump backup restores into PostgreSQL only: set DATABASE_URL to an empty database');
  }
  const settings = { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory };
  if (format === 'pg_dump') {
    if (await storeExists(settings)) {
      const existing = await openStore(settings);
      try {
        const holding = await storeHoldings(existing);
        if (holding.length > 0 && !options.replace) throw refusal(where.location, holdingsText(holding));
      } finally {
        await existing.close();
      }
    }
    await restorePostgres(config.databaseUrl as string, backup);
  }
  const store = await openStore(settings);
  try {
    process.stderr.write(storeBanner(where, await describeStoreKey(store, keySettingsOf(config))));
    const counts =
      format === 'sqlite'
        ? await restoreSqliteBackup(backup, store, options.replace).catch((error: unknown) => {
            if (error instanceof TargetNotEmptyError) throw refusal(where.location, error.message);
            throw error;
          })
        : await storeHoldings(store);
    process.stdout.write(`Restored ${backup} into ${where.location}: ${countsLine(counts, format === 'sqlite')}.\n`);
    process.stdout.write(keyNote(await recordedFingerprint(store)));
  } finally {
    await store.close();
  }
}

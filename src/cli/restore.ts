import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { BackupRefused, backupRestoreOf } from '../store/backup/backup-restore';
import { copyStore, holdingsText, storeHoldings, TargetNotEmptyError } from '../store/copy/copy-store';
import { openStore, type Store, type StoreSettings } from '../store/open-store';
import { describeStoreKey, recordedFingerprint } from '../store/store-key';
import { storeExists, storeLocation } from '../store/store-presence';
import { keySettingsOf, storeBanner } from './configured-store';
import { countsLine, keyNote } from './copy-store';
import { UsageError } from './usage-error';

function refusal(location: string, holding: string): UsageError {
  return new UsageError(`${location} is not empty (it holds ${holding}): pass --replace to replace what it holds`);
}

/** A backup its engine reads as a store (a private copy: the backup itself is never changed), into any store. */
async function restoreReadableBackup(
  readAs: (file: string, folder: string) => StoreSettings,
  backup: string,
  target: Store,
  replace: boolean,
) {
  const folder = mkdtempSync(join(tmpdir(), 'school-restore-'));
  try {
    // Opening migrates a backup of an older version to this one's schema, in the copy.
    const source = await openStore(readAs(backup, folder));
    try {
      return await copyStore(source, target, { replace });
    } finally {
      await source.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The store's refusal of a backup, as the command's usage error. */
function refusedAsUsage<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof BackupRefused ? new UsageError(error.message) : error;
  }
}

/** Refuses, before anything is written, a store of the backup's engine that holds data of its own. */
async function refuseNonEmpty(settings: StoreSettings, location: string, replace: boolean): Promise<void> {
  if (replace || !(await storeExists(settings))) return;
  const existing = await openStore(settings);
  try {
    const holding = await storeHoldings(existing);
    if (holding.length > 0) throw refusal(location, holdingsText(holding));
  } finally {
    await existing.close();
  }
}

/**
 * school-service restore BACKUP [--replace]: restores a backup made by `backup` into the configured
 * store, which must be empty (or is replaced with --replace). A backup its engine reads as a store
 * (SQLite's) restores into either engine, table by table; one the engine restores itself (a
 * pg_dump backup, with pg_restore) only into a store of that engine.
 */
export async function restoreCommand(path: string, options: { readonly replace: boolean }): Promise<void> {
  const backup = resolve(path);
  if (!existsSync(backup)) throw new UsageError(`there is no backup at ${backup}`);
  const config = loadConfig();
  const where = storeLocation(config);
  const settings = { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory };
  const how = refusedAsUsage(() => backupRestoreOf(backup, settings));
  if ('inPlace' in how) {
    await refuseNonEmpty(settings, where.location, options.replace);
    await how.inPlace();
  }
  const readAs = 'readAs' in how ? how.readAs : undefined;
  const store = await openStore(settings);
  try {
    process.stderr.write(storeBanner(where, await describeStoreKey(store, keySettingsOf(config))));
    const counts = readAs
      ? await restoreReadableBackup(readAs, backup, store, options.replace).catch((error: unknown) => {
          if (error instanceof TargetNotEmptyError) throw refusal(where.location, error.message);
          throw error;
        })
      : await storeHoldings(store);
    process.stdout.write(`Restored ${backup} into ${where.location}: ${countsLine(counts, readAs !== undefined)}.\n`);
    process.stdout.write(keyNote(await recordedFingerprint(store)));
  } finally {
    await store.close();
  }
}

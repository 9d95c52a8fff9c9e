import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { backupEngineOf } from '../store/backup/backup-files';
import { copyStore, holdingsText, storeHoldings, TargetNotEmptyError } from '../store/copy/copy-store';
import type { EngineDriver } from '../store/engine-driver';
import { ENGINE_DRIVERS, engineDriverOf } from '../store/engines';
import { openStore, type Store, type StoreSettings } from '../store/open-store';
import { describeStoreKey, recordedFingerprint } from '../store/store-key';
import { storeExists, storeLocation } from '../store/store-presence';
import { keySettingsOf, storeBanner } from './configured-store';
import { countsLine, keyNote } from './copy-store';
import { UsageError } from './usage-error';

/** The engine that wrote the backup, by its first bytes. */
function backupEngine(path: string): EngineDriver {
  const engine = backupEngineOf(path);
  if (!engine) {
    const kinds = ENGINE_DRIVERS.map((driver) => `a backup of ${driver.engine.title} (${driver.backups.kind})`);
    throw new UsageError(`${path} is neither ${kinds.join(' nor ')}`);
  }
  return engine;
}

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
  const written = backupEngine(backup);
  const config = loadConfig();
  const where = storeLocation(config);
  const settings = { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory };
  const { readAs, restoreInPlace } = written.backups;
  if (!readAs) {
    if (engineDriverOf(settings) !== written || !restoreInPlace) {
      throw new UsageError(
        `a ${written.backups.kind} backup restores into ${written.engine.title} only: ` +
          `set ${written.setting(settings)} to an empty database`,
      );
    }
    await refuseNonEmpty(settings, where.location, options.replace);
    await restoreInPlace(settings, backup);
  }
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

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { counted } from '../lib/counted';
import { backupStore } from '../store/backup/backup-store';
import { openStore } from '../store/open-store';
import { describeStoreKey, type KeyDescription } from '../store/store-key';
import { keySettingsOf, requireExistingStore, storeBanner } from './configured-store';
import { UsageError } from './usage-error';

/** Which key the operator must keep beside the backup: the store's, named by where this process holds it. */
function keyReminder({ held, recorded }: KeyDescription): string | undefined {
  if (recorded === undefined)
    return held ? `keep ${held.origin} (fingerprint ${held.fingerprint}) as well, apart from it` : undefined;
  if (held?.fingerprint === recorded) return `keep ${held.origin} (fingerprint ${recorded}) as well, apart from it`;
  return (
    `keep the store's key (fingerprint ${recorded}) as well, apart from it: ` +
    `it is the service's OUTBOX_KEY or key file, not ${held ? held.origin : 'anything this command was given'}`
  );
}

/**
 * Backs up the configured store into a new file while the service may go on serving: SQLite with
 * its online backup API, PostgreSQL with pg_dump. The key that opens the sealed data is not in
 * the backup, so that a stolen backup shows no authentication code or digest secret; the command
 * names the key to keep by the fingerprint the store recorded.
 */
export async function backupCommand(path: string): Promise<void> {
  const config = loadConfig();
  const target = resolve(path);
  if (existsSync(target)) throw new UsageError(`${target} exists already: name a new file`);
  if (!existsSync(dirname(target))) throw new UsageError(`there is no folder ${dirname(target)}`);
  const where = await requireExistingStore(config);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  let key: KeyDescription;
  try {
    key = await describeStoreKey(store, keySettingsOf(config));
  } finally {
    await store.close();
  }
  process.stderr.write(storeBanner(where, key));
  const backup = await backupStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }, target);
  process.stdout.write(
    `Backed up ${where.location} to ${target} (${backup.kind}, ${counted(backup.bytes, 'byte')}).\n`,
  );
  const reminder = keyReminder(key);
  if (reminder) process.stdout.write(`The key that opens its sealed data is not in it: ${reminder}.\n`);
}

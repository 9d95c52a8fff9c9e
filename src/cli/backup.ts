import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { outboxKeyFile } from '../lib/payload-sealer';
import { backupStore } from '../store/backup/backup-store';
import { sqliteFileOf, withoutPassword } from '../store/open-store';
import { UsageError } from './usage-error';

/**
 * Backs up the configured store into a new file while the service may go on serving: SQLite with
 * its online backup API, PostgreSQL with pg_dump. The key that opens the sealed data is not in
 * the backup, so that a stolen backup shows no authentication code or digest secret; the command
 * reminds the operator to keep it.
 */
export async function backupCommand(path: string): Promise<void> {
  const config = loadConfig();
  const target = resolve(path);
  if (existsSync(target)) throw new UsageError(`${target} exists already: name a new file`);
  if (!existsSync(dirname(target))) throw new UsageError(`there is no folder ${dirname(target)}`);
  const source = config.databaseUrl ? withoutPassword(config.databaseUrl) : sqliteFileOf(config.dataDirectory);
  if (!config.databaseUrl && !existsSync(source)) throw new UsageError(`there is no store at ${source}`);
  const backup = await backupStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }, target);
  const kind = backup.engine === 'sqlite' ? 'SQLite online backup, integrity checked' : 'pg_dump custom format';
  process.stdout.write(`Backed up ${source} to ${target} (${kind}, ${backup.bytes} bytes).\n`);
  // Without OUTBOX_KEY and before the key file exists, nothing has been sealed yet.
  const keyFile = outboxKeyFile(resolve(config.dataDirectory));
  const key = config.delivery.outboxKey ? 'the OUTBOX_KEY setting' : existsSync(keyFile) ? keyFile : undefined;
  if (key)
    process.stdout.write(`The key that opens its sealed data is not in it: keep ${key} as well, apart from it.\n`);
}

import { readFileSync } from 'node:fs';
import { counted } from '../lib/counted';
import { withoutUrlPassword } from '../lib/hidden-passwords';
import { copyStore, holdingsText, type TableCount, TargetNotEmptyError } from '../store/copy/copy-store';
import { openStore } from '../store/open-store';
import { recordedFingerprint } from '../store/store-key';
import { storeLocation } from '../store/store-presence';
import { withConfiguredStore } from './configured-store';
import { storeTarget } from './store-target';
import { UsageError } from './usage-error';

/** The table-by-table counts of a copy or a restore, for its summary. */
export function countsLine(counts: readonly TableCount[], checked: boolean): string {
  const rows = counts.reduce((sum, { rows }) => sum + rows, 0);
  const against = checked ? ", each table's count checked against the source" : '';
  return `${counted(counts.length, 'table')}, ${counted(rows, 'row')}${against}: ${holdingsText(counts)}`;
}

/** What the service on the copied store needs: the key its data is sealed with. */
export function keyNote(fingerprint: string | undefined): string {
  if (fingerprint === undefined) return '';
  return (
    `Its sealed data needs the same key (fingerprint ${fingerprint}): give the service on it the same OUTBOX_KEY, ` +
    'or, for an SQLite store without OUTBOX_KEY, copy the key file outbox.key into its data folder.\n'
  );
}

export interface CopyStoreOptions {
  readonly to?: string;
  readonly toFile?: string;
}

/** The longest --to-file read: a URL, not a file named by mistake. */
const MAX_URL_FILE_BYTES = 4096;

/**
 * The target's URL, from one of --to, --to-file (its first line) and COPY_STORE_TO. A password
 * given on the command line was in `ps` until the command hid it: the operator is told so.
 */
function targetUrl(options: CopyStoreOptions): string {
  const given = [options.to, options.toFile, process.env.COPY_STORE_TO || undefined].filter((value) => value);
  if (given.length !== 1) throw new UsageError('name the empty store once: --to URL, --to-file FILE or COPY_STORE_TO');
  if (options.to !== undefined) {
    if (withoutUrlPassword(options.to) !== options.to) {
      process.stderr.write(
        "Warning: --to's password could be read in the process list while the command started; " +
          'give the URL with --to-file FILE or COPY_STORE_TO instead.\n',
      );
    }
    return options.to;
  }
  if (options.toFile === undefined) return process.env.COPY_STORE_TO as string;
  let text: string;
  try {
    text = readFileSync(options.toFile).subarray(0, MAX_URL_FILE_BYTES).toString('utf8');
  } catch (error) {
    throw new UsageError(`--to-file: cannot read ${options.toFile} (${(error as NodeJS.ErrnoException).code})`);
  }
  return text.split(/\r?\n/)[0].trim();
}

/**
 * school-service copy-store --to URL: copies everything of the configured store into an empty one
 * of either engine (moving from SQLite to PostgreSQL, or back), callers and audit trail included.
 */
export function copyStoreCommand(options: CopyStoreOptions): Promise<void> {
  const target = storeTarget(targetUrl(options));
  return withConfiguredStore(
    async (source, config) => {
      const where = storeLocation(target);
      if (where.location === storeLocation(config).location)
        throw new UsageError('--to names the configured store itself');
      const into = await openStore(target);
      try {
        const counts = await copyStore(source, into, { replace: false }).catch((error: unknown) => {
          if (error instanceof TargetNotEmptyError)
            throw new UsageError(
              `${where.location} is not empty (it holds ${error.message}): copy into an empty store`,
            );
          throw error;
        });
        process.stdout.write(`Copied ${source.location} to ${where.location}: ${countsLine(counts, true)}.\n`);
        process.stdout.write(keyNote(await recordedFingerprint(into)));
      } finally {
        await into.close();
      }
    },
    { mustExist: true },
  );
}

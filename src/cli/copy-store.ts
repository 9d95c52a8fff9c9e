import { counted } from '../lib/counted';
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

/**
 * school-service copy-store --to URL: copies everything of the configured store into an empty one
 * of either engine (moving from SQLite to PostgreSQL, or back), callers and audit trail included.
 */
export function copyStoreCommand(options: { readonly to: string }): Promise<void> {
  const target = storeTarget(options.to);
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

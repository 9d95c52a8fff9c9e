import { counted } from '../lib/counted';
import { BundleStop } from '../roster/bundle-stop';
import { type ImportOptions, type ImportOutcome, importSchool } from '../roster/import-school';
import type { Store } from '../store/open-store';
import { ColumnsGrew } from './live-bundle';
import type { ReadingDone, ReadingThread } from './reading-thread';
import { SyncFailure } from './sync-failure';
import type { SyncLease } from './sync-lease';

/** The reading, whole and accepted, and how long it took from the sync's start. */
export interface WholeReading extends ReadingDone {
  readonly readMs: number;
}

/** What a sync's import reads and how, besides the bundle. */
export interface ReadingImport {
  readonly store: Store;
  readonly options: ImportOptions;
  readonly lease: SyncLease;
  /** Warnings count as problems: records sent twice fail the reading. */
  readonly strict: boolean;
  /** Milliseconds since the sync started. */
  readonly elapsedMs: () => number;
}

/** The reading once it is whole, refused when --strict counts the records sent twice as problems. */
async function wholeReading(run: ReadingImport, reader: ReadingThread): Promise<WholeReading> {
  const done = await reader.done;
  if (run.strict && done.duplicates > 0) {
    throw new SyncFailure(
      `the provider sent ${counted(done.duplicates, 'record')} twice (a warning; --strict makes warnings problems)`,
    );
  }
  await run.lease.stillHeld();
  return { ...done, readMs: run.elapsedMs() };
}

/**
 * The import reads each file as soon as it is whole, and results as they come, while the reading
 * thread reads the rest: the reading no longer comes before the import. The import decides and
 * writes nothing before the reading is whole and accepted; a failed reading stops it, and an
 * import that fails stops the reading.
 */
export async function importWhileReading(
  run: ReadingImport,
  reader: ReadingThread,
): Promise<{ read: WholeReading; imported: ImportOutcome }> {
  const reading = wholeReading(run, reader);
  reading.then(
    () => reader.bundle.seal(),
    (error) => reader.bundle.fail(error),
  );
  let importStopped = false;
  const importing = importSchool(run.store, {
    ...run.options,
    bundle: reader.bundle,
    untilWhole: async () => void (await reading),
  });
  importing.catch((error) => {
    // Its own failure, not one of the bundle (the reading's, or columns to read again): the reading stops.
    if (error instanceof BundleStop) return;
    importStopped = true;
    reader.stop(new SyncFailure('the import stopped'));
  });
  const [read, firstImport] = await Promise.allSettled([reading, importing]);
  if (read.status === 'rejected') {
    // The reading stopped because the import had failed: the import's error is the one to tell.
    throw importStopped && firstImport.status === 'rejected' ? firstImport.reason : read.reason;
  }
  // Records that gained a column after the growing file's header: imported again, now whole.
  if (firstImport.status === 'rejected' && !(firstImport.reason instanceof ColumnsGrew)) throw firstImport.reason;
  const imported = firstImport.status === 'fulfilled' ? firstImport.value : await importSchool(run.store, run.options);
  return { read: read.value, imported };
}

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type SisSettings, secretOf } from '../config/sis-settings';
import { providerAuth } from './provider-auth';
import { ProviderClient } from './provider-client';
import { type ProviderRead, readProvider } from './read-provider';
import type { HeldRecords } from './school-filter';
import { type FileName, SpooledBundle } from './spooled-bundle';
import { SyncFailure } from './sync-failure';

/**
 * The sync's reading, on a thread of its own (reading-thread.ts starts it): the provider's pages
 * are fetched, parsed and written to the spooled bundle here, while the import reads that bundle
 * on the sync's main thread. Parsing the JSON of millions of results is most of a sync's reading;
 * here it no longer waits for the import's turns, nor the import for its.
 */
export interface ReadingSettings {
  /** The provider's settings, the secret revealed: a thread's data is copied, and a function is not. */
  readonly sis: Omit<SisSettings, 'clientSecret'> & { readonly clientSecret: string };
  readonly folder: string;
  readonly mode: 'bulk' | 'delta';
  readonly since: string | undefined;
  readonly keepResults: boolean;
  readonly held: HeldRecords | undefined;
}

/** What the thread tells the sync. */
export type FromReading =
  | { readonly kind: 'ready' }
  | { readonly kind: 'grown'; readonly name: FileName; readonly bytes: number; readonly grew: boolean }
  | { readonly kind: 'whole'; readonly name: FileName; readonly bytes: number }
  | { readonly kind: 'wait'; readonly id: number; readonly ms: number }
  | ({
      readonly kind: 'done';
      readonly duplicates: number;
      readonly duplicated: readonly string[];
      readonly requests: number;
    } & ProviderRead)
  | { readonly kind: 'failed'; readonly failure: boolean; readonly message: string; readonly requests: number };

/** What the sync tells the thread: a wait it asked for is over. */
export interface ToReading {
  readonly kind: 'waited';
  readonly id: number;
}

const data = workerData as ReadingSettings;
const port = parentPort;
const tell = (message: FromReading) => port?.postMessage(message);

// Backoffs are waited for by the sync (whose tests count them instead of sleeping).
const waits = new Map<number, () => void>();
let nextWait = 1;
port?.on('message', (message: ToReading) => {
  waits.get(message.id)?.();
  waits.delete(message.id);
});
const wait = (ms: number) =>
  new Promise<void>((resolve) => {
    const id = nextWait++;
    waits.set(id, resolve);
    tell({ kind: 'wait', id, ms });
  });

async function readAll(): Promise<void> {
  const settings: SisSettings = { ...data.sis, clientSecret: secretOf(data.sis.clientSecret) };
  const client = new ProviderClient(settings, providerAuth(settings), wait);
  try {
    const spool = await SpooledBundle.create(data.mode, settings.version, { folder: data.folder });
    // The manifest and every file are there: the import may open the bundle.
    tell({ kind: 'ready' });
    const progress = {
      grown: (name: FileName, bytes: number, grew: boolean) => tell({ kind: 'grown', name, bytes, grew }),
      whole: (name: FileName, bytes: number) => tell({ kind: 'whole', name, bytes }),
    };
    const provider = await readProvider(client, settings, spool, data.since, progress, data.keepResults, data.held);
    await spool.finish();
    tell({
      kind: 'done',
      ...provider,
      duplicates: spool.duplicates,
      duplicated: spool.duplicated,
      requests: client.requests,
    });
  } catch (error) {
    const failure = error instanceof SyncFailure;
    tell({ kind: 'failed', failure, message: (error as Error)?.message ?? String(error), requests: client.requests });
  }
}

/**
 * The import, on the main thread, is the sync's critical path, and in the service the main thread
 * answers calls: this thread yields to both. Linux keeps a nice value per thread, set through the
 * thread's own id (/proc/thread-self); elsewhere the thread runs at the process's priority.
 */
function yieldToMainThread(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), READING_NICENESS);
  } catch {
    // No /proc (not Linux): nothing to lower.
  }
}
const READING_NICENESS = 10;

yieldToMainThread();
void readAll();

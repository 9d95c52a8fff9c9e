import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { appendAuditBatchOnce, pruneAuditTrail } from '../store/queries/audit-trail';
import { openStoreConnection, type StoreSettings } from '../store/open-store';
import { auditRowsOf } from './audit-lines';

/**
 * The audit trail's writer: a thread of its own with its own connection to the store, so that
 * writing the trail (and SQLite's checkpoints after it) never holds the event loop that answers
 * calls. It is sent closed journal segments, writes each as one batch, deletes the segment once
 * its rows are in the store and says so; entries older than the retention are deleted once an
 * hour, a thousand at a time.
 */

export interface WriterSettings {
  readonly store: StoreSettings;
  readonly retentionDays: number;
}

/** From the service: a segment to write, or the end. */
export type ToWriter = { kind: 'batch'; id: number; path: string; lines: readonly string[] } | { kind: 'close' };
/** To the service: a batch is in the store (and how many of its lines did not parse), or could not be written. */
export type FromWriter =
  | { kind: 'written'; id: number; unreadable: number }
  | { kind: 'failed'; id: number; error: string }
  | { kind: 'prune-failed'; error: string };

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const port = parentPort;
if (!port) throw new Error('the audit writer runs as a worker thread');
const settings = workerData as WriterSettings;
const store = openStoreConnection(settings.store);
const tell = (message: FromWriter) => port.postMessage(message);
let lastPrune = 0;
let work = Promise.resolve();

async function pruneWhenDue(): Promise<void> {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  const before = new Date(now - settings.retentionDays * DAY_MS).toISOString();
  try {
    while ((await pruneAuditTrail(store, before, 1_000)) > 0);
  } catch (error) {
    tell({ kind: 'prune-failed', error: error instanceof Error ? error.message : String(error) });
  }
}

async function write(batch: Extract<ToWriter, { kind: 'batch' }>): Promise<void> {
  try {
    const rows = auditRowsOf(batch.lines);
    await appendAuditBatchOnce(store, rows.events, rows.subjects);
    rmSync(batch.path, { force: true });
    tell({ kind: 'written', id: batch.id, unreadable: rows.unreadable });
  } catch (error) {
    tell({ kind: 'failed', id: batch.id, error: error instanceof Error ? error.message : String(error) });
    return;
  }
  await pruneWhenDue();
}

port.on('message', (message: ToWriter) => {
  work = work.then(() =>
    message.kind === 'batch'
      ? write(message)
      : store.close().then(() => {
          port.close();
        }),
  );
});

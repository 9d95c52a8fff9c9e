import { rmSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { appendAuditBatchOnce, pruneAuditTrail } from '../store/queries/audit-trail';
import { openStoreConnection, type StoreConnection, type StoreSettings } from '../store/open-store';
import { auditRowsOf } from './audit-lines';

/**
 * The audit trails' writer: one thread a process, shared by every open school's trail, with its
 * own connection to each of their stores, so that writing a trail (and SQLite's checkpoints after
 * it) never holds the event loop that answers calls, and a district's schools do not each pay for
 * a thread. It is sent closed journal segments, each naming its trail, writes each as one batch,
 * deletes the segment once its rows are in the store and says so; entries older than a trail's
 * retention are deleted once an hour, a thousand at a time. A trail that closes has its
 * connection closed; the thread ends when told to, once no trail is left.
 */

export interface WriterSettings {
  readonly store: StoreSettings;
  readonly retentionDays: number;
  /** The district school whose trail this is, which each of its entries names; null at the deployment's own. */
  readonly school: string | null;
}

/** From the service: a trail to write for, a segment of it to write, a trail done with, or the end. */
export type ToWriter =
  | { kind: 'attach'; trail: number; settings: WriterSettings }
  | { kind: 'batch'; trail: number; id: number; path: string; lines: readonly string[] }
  | { kind: 'detach'; trail: number }
  | { kind: 'close' };
/** To the service: a batch is in the store (and how many of its lines did not parse), or could not be written. */
export type FromWriter =
  | { kind: 'written'; trail: number; id: number; unreadable: number }
  | { kind: 'failed'; trail: number; id: number; error: string }
  | { kind: 'prune-failed'; trail: number; error: string }
  | { kind: 'detached'; trail: number };

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A trail written for: its settings, and its connection once a batch has needed it. */
interface TrailStore {
  readonly settings: WriterSettings;
  connection?: StoreConnection;
  lastPrune: number;
}

if (!parentPort) throw new Error('the audit writer runs as a worker thread');
const port = parentPort;
const trails = new Map<number, TrailStore>();
const tell = (message: FromWriter) => port.postMessage(message);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
let work = Promise.resolve();

async function pruneWhenDue(trail: number, target: TrailStore, store: StoreConnection): Promise<void> {
  const now = Date.now();
  if (now - target.lastPrune < PRUNE_EVERY_MS) return;
  target.lastPrune = now;
  const before = new Date(now - target.settings.retentionDays * DAY_MS).toISOString();
  try {
    while ((await pruneAuditTrail(store, before, 1_000)) > 0);
  } catch (error) {
    tell({ kind: 'prune-failed', trail, error: messageOf(error) });
  }
}

async function write(batch: Extract<ToWriter, { kind: 'batch' }>): Promise<void> {
  const target = trails.get(batch.trail);
  if (!target) return; // detached meanwhile: the segment stays in the journal for the next start
  let store: StoreConnection;
  try {
    // Opened at the first batch, in the try: a store that cannot be opened fails the batch, which is sent again.
    target.connection ??= openStoreConnection(target.settings.store);
    store = target.connection;
    const rows = auditRowsOf(batch.lines, target.settings.school);
    await appendAuditBatchOnce(store, rows.events, rows.subjects);
    rmSync(batch.path, { force: true });
    tell({ kind: 'written', trail: batch.trail, id: batch.id, unreadable: rows.unreadable });
  } catch (error) {
    tell({ kind: 'failed', trail: batch.trail, id: batch.id, error: messageOf(error) });
    return;
  }
  await pruneWhenDue(batch.trail, target, store);
}

async function detach(trail: number): Promise<void> {
  const connection = trails.get(trail)?.connection;
  trails.delete(trail);
  try {
    await connection?.close();
  } catch {
    // A connection that fails to close holds nothing of the trail's: its batches are written or in the journal.
  }
  tell({ kind: 'detached', trail });
}

async function handle(message: ToWriter): Promise<void> {
  switch (message.kind) {
    case 'attach':
      trails.set(message.trail, { settings: message.settings, lastPrune: 0 });
      return;
    case 'batch':
      return write(message);
    case 'detach':
      return detach(message.trail);
    case 'close':
      for (const trail of [...trails.keys()]) await detach(trail);
      port.close();
  }
}

port.on('message', (message: ToWriter) => {
  work = work.then(() => handle(message));
});

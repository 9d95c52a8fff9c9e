import { randomUUID } from 'node:crypto';
import { log } from '../lib/log';
import {
  forgetProcess,
  forgetProcessesNotSeenSince,
  processesSeenSince,
  recordProcessSeen,
} from '../store/queries/service-processes';
import type { ServiceProcessTable } from '../store/schema';
import type { Session } from '../store/session';

/** How often a process refreshes its row in the store. */
const BEAT_MS = 15_000;
/** A process whose row is older than this is taken for gone: three beats missed. */
export const SEEN_WITHIN_MS = 3 * BEAT_MS;
/** Rows of processes that died without deleting theirs are deleted after this long. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export interface Presence {
  /** The processes that serve from the store now, this one included. */
  serving(): Promise<ServiceProcessTable[]>;
  /** Deletes this process's row: it stops serving. */
  leave(): Promise<void>;
}

function failed(what: string, error: unknown): void {
  log.warn(what, { error: error instanceof Error ? error.message : String(error) });
}

/**
 * Keeps a row for this process in the store while it serves, so that every node sharing the store
 * can tell which processes (workers, and nodes on other machines) serve from it.
 */
export function startPresence(
  store: Session,
  who: { readonly node: string; readonly version: string; readonly startedAt: Date },
): Presence {
  const row = {
    id: randomUUID(),
    node: who.node,
    pid: process.pid,
    version: who.version,
    started_at: who.startedAt.toISOString(),
  };
  const beat = async () => {
    const now = Date.now();
    try {
      await recordProcessSeen(store, { ...row, seen_at: new Date(now).toISOString() });
      await forgetProcessesNotSeenSince(store, new Date(now - FORGET_AFTER_MS).toISOString());
    } catch (error) {
      failed('could not record this process as serving in the store', error);
    }
  };
  let beating = beat();
  const timer = setInterval(() => {
    beating = beat();
  }, BEAT_MS);
  timer.unref();
  return {
    serving: () => processesSeenSince(store, new Date(Date.now() - SEEN_WITHIN_MS).toISOString()),
    async leave() {
      clearInterval(timer);
      // A beat still being written would bring the row back after it was deleted.
      await beating;
      try {
        await forgetProcess(store, row.id);
      } catch (error) {
        failed('could not remove this process from the processes serving in the store', error);
      }
    },
  };
}

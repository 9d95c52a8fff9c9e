import type { FilesScrubbed } from '../engine-driver';
import type { Store } from '../open-store';
import { processesSeenSince } from '../queries/service-processes';
import { type ErasurePlan, type ErasureRecord, eraseRows, tablesOf } from './subject-erasure';

/** How recently a serving process must have been seen to count as serving. */
const SERVING_WITHIN_MS = 60_000;

/** Whether another process than this one has served from the store within the last minute. */
async function othersServing(store: Store): Promise<boolean> {
  const since = new Date(Date.now() - SERVING_WITHIN_MS).toISOString();
  return (await processesSeenSince(store, since)).some((serving) => serving.pid !== process.pid);
}

/**
 * Erases the plan's rows and then the bytes they leave in the store's files, as far as the engine
 * lets it (each engine's scrub-files.ts says how); the steps it refused are reported, not thrown.
 */
export function eraseFromStoreFiles(store: Store, plan: ErasurePlan, record: ErasureRecord): Promise<FilesScrubbed> {
  return store.connection.scrubAfter(
    () => eraseRows(store, plan, record),
    tablesOf(plan),
    () => othersServing(store),
  );
}

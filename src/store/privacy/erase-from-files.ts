import type { FilesScrubbed } from '../engine-driver';
import type { Store } from '../open-store';
import { type ErasurePlan, type ErasureRecord, eraseRows, tablesOf } from './subject-erasure';

/**
 * Erases the plan's rows and then the bytes they leave in the store's files, as far as the engine
 * lets it (each engine's scrub-files.ts says how); the steps it refused are reported, not thrown.
 */
export function eraseFromStoreFiles(store: Store, plan: ErasurePlan, record: ErasureRecord): Promise<FilesScrubbed> {
  return store.connection.scrubAfter(() => eraseRows(store, plan, record), tablesOf(plan));
}

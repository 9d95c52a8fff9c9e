import type { Kysely } from 'kysely';
import { withinTime } from '../lib/time-limit';
import { migrationState } from '../store/migrate';
import type { Store } from '../store/open-store';

/** How long /readyz waits for the store: a balancer's check must not hang on a store that went away. */
const STORE_CHECK_MS = 2_000;

/** The text of an error on one line, for the one-line answer of /readyz. */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/**
 * Why this process should not be sent calls now, or undefined when it should: it is stopping, its
 * store does not answer, or the store's schema is not the one this version migrated it to.
 */
export async function unreadyReason(store: Store, stopping: boolean): Promise<string | undefined> {
  if (stopping) return 'stopping: the process is finishing the calls it has and takes no more';
  let state: Awaited<ReturnType<typeof migrationState>>;
  try {
    state = await withinTime(migrationState(store.db as Kysely<unknown>), STORE_CHECK_MS, 'the store');
  } catch (error) {
    return `store unreachable: ${oneLine(error)}`;
  }
  if (state.missing.length > 0) return `store not migrated: missing ${state.missing.join(', ')}`;
  if (state.unknown.length > 0) return `store migrated by a newer version: ${state.unknown.join(', ')} unknown here`;
  return undefined;
}

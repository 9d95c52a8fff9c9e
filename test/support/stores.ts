import { loadConfig } from '../../src/config/service-config';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { openStore, type Store } from '../../src/store/open-store';

/** The demo school most tests read: small enough to load in a moment on either engine. */
export const TEST_SCHOOL = { students: 120, seed: 7, startYear: 2026 } as const;
/** A day inside the test school's first term, so "current" is fixed whatever today is. */
export const TEST_TODAY = new Date('2026-11-22T09:00:00Z');

export function openTestStore(settings: Record<string, string>): Promise<Store> {
  const config = loadConfig(settings);
  return openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
}

/** Runs `work` on the store of `settings`, opened for it and closed after, whatever comes of it. */
export async function withTestStore<T>(
  settings: Record<string, string>,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openTestStore(settings);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Opens a fresh store with the given settings and loads the test school into it. */
export async function openTestSchool(settings: Record<string, string>): Promise<Store> {
  const store = await openTestStore(settings);
  await loadDemoSchool(store, TEST_SCHOOL);
  return store;
}

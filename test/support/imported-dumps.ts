import type { Store } from '../../src/store/open-store';
import type { EngineUnderTest } from './engines';
import { type BundleRows, writeBundle } from './roster-bundle';
import { importBundle, problemsOf } from './roster-import';
import { type StoreDump, storeDump } from './store-dump';
import { openTestStore } from './stores';

/**
 * For the tests that set a delta beside a bulk import of its end state: `imported` opens a fresh
 * store of the engine, imports the bundles into it in turn (none may be refused) and dumps it;
 * `close` closes every store it opened (in an afterAll).
 */
export function importedDumps(engine: EngineUnderTest): {
  imported: (...bundles: BundleRows[]) => Promise<StoreDump>;
  close: () => Promise<void>;
} {
  const stores: Store[] = [];
  return {
    imported: async (...bundles) => {
      const store = await openTestStore(engine.freshStoreSettings());
      stores.push(store);
      for (const rows of bundles) expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
      return storeDump(store);
    },
    close: async () => {
      for (const store of stores) await store.close();
    },
  };
}

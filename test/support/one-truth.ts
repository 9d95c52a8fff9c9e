import { readSisSettings } from '../../src/config/sis-settings';
import { syncSchool } from '../../src/sis/sync-school';
import type { Store } from '../../src/store/open-store';
import type { EngineUnderTest } from './engines';
import type { OneRosterProvider } from './oneroster-provider';
import type { StoreDump } from './store-dump';
import { openTestStore } from './stores';
import { SYNC_TEST_OPTIONS } from './sync-options';

/**
 * What the property tests comparing the paths a school arrives by share: a fresh store of the
 * engine for one run, a sync from the stand-in provider that must succeed, and the one field a
 * 1.2 provider adds that a 1.1 bundle cannot have.
 */

/** Runs `work` on a fresh store of the engine, closed after it whatever comes of it. */
export async function withFreshStore<T>(engine: EngineUnderTest, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openTestStore(engine.freshStoreSettings());
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** One sync of the provider into the store, which must write (the first a bulk, then deltas). */
export async function syncedOnce(
  store: Store,
  provider: OneRosterProvider,
  version: '1.1' | '1.2',
  mode: 'bulk' | 'delta',
  school?: string,
): Promise<void> {
  const settings = readSisSettings({
    ...provider.settings(version),
    SIS_PAGE_SIZE: '5',
    ...(school ? { SIS_SCHOOL: school } : {}),
  });
  const outcome = await syncSchool(store, settings, SYNC_TEST_OPTIONS);
  expect({ outcome: outcome.outcome, mode: outcome.mode, message: outcome.message }).toEqual({
    outcome: 'done',
    mode,
    message: '',
  });
}

/**
 * What the store keeps of a 1.1 bundle's users with the `primaryOrg` a 1.2 provider adds to every
 * user (its first org): a sync keeps it to give back; a 1.1 CSV has no such column.
 */
export function withPrimaryOrg(dump: StoreDump): StoreDump {
  const kept = Object.fromEntries(
    Object.entries(dump.kept).map(([key, fields]) =>
      key.startsWith('users.csv ')
        ? [key, { ...fields, primaryOrgSourcedId: fields.orgSourcedIds.split(',')[0] }]
        : [key, fields],
    ),
  );
  return { ...dump, kept };
}

import type { SyncOptions } from '../../src/sis/sync-school';

/** A sync as `school-service sync` runs by default (national numbers in 966), without waits between tries. */
export const SYNC_TEST_OPTIONS: SyncOptions = {
  full: false,
  dryRun: false,
  skipInvalid: false,
  fromIdentifier: false,
  strict: false,
  defaultCountryCode: '966',
  wait: async () => undefined,
};

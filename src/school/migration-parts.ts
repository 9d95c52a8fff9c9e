import type { MigrationSettings } from '../config/migration-settings';
import { Comparisons } from '../migration/comparisons';
import { ForwardSlots } from '../migration/forward-slots';
import { ShadowLedger } from '../migration/shadow-ledger';
import { TrafficRecorder } from '../migration/traffic-recorder';
import { showsNoRecords } from '../operations/registry';
import type { MigrationParts } from '../pipeline/routed-call';
import type { Store } from '../store/open-store';

/**
 * A school's side of the migration: the comparisons (and the shadow ledger in its store), the
 * calls waiting for the legacy service, the recording. Without a legacy service or a recording
 * every operation is local, and nothing of the migration is made.
 */
export function migrationParts(
  settings: MigrationSettings,
  store: Store,
  clock: () => Date,
): MigrationParts | undefined {
  const { recordFile } = settings;
  if (settings.legacyUrl === undefined && recordFile === undefined) return undefined;
  return {
    settings,
    comparisons: new Comparisons({ ...settings, showsNoRecords }, new ShadowLedger(store, settings, clock)),
    forwards: new ForwardSlots({
      perCaller: settings.legacyInFlightPerCaller,
      perAddress: settings.legacyInFlightPerAddress,
    }),
    recorder: recordFile === undefined ? undefined : new TrafficRecorder({ ...settings, recordFile }),
  };
}

/** Writes out what the migration holds: the comparisons not yet in the ledger, the recording. */
export async function closeMigrationParts(parts: MigrationParts | undefined): Promise<void> {
  await parts?.comparisons.close();
  await parts?.recorder?.close();
}

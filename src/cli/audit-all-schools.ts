import type { Config } from '../config/service-config';
import { readSchools } from '../district/school-list';
import { schoolStoreSettings } from '../district/school-store-place';
import type { EngineSettings } from '../store/engine-driver';
import { openStore } from '../store/open-store';
import { type AuditEntry, type AuditQuery, auditEntries } from '../store/queries/audit-trail';
import { storeExists } from '../store/store-presence';

/** A trail to read: a store, and the school its entries are of (undefined: the deployment's own). */
interface TrailPlace {
  readonly school: string | undefined;
  readonly store: EngineSettings;
}

/** The newest `limit` of two listings each newest first (ids begin with the entry's time). */
function newestOf(kept: readonly AuditEntry[], more: readonly AuditEntry[], limit: number): AuditEntry[] {
  return [...kept, ...more].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, limit);
}

/**
 * The entries of every trail of the deployment, its own school's and each registered school's, in
 * one listing newest first, at most `query.limit` of them: each trail is asked for its newest
 * `limit` alone and the listing keeps the newest `limit` of those so far, so that what is held is
 * bounded whatever the number of schools (at most MAX_SCHOOLS). Each entry names its school: the
 * one its row names, or, for a row written before entries named their school, the school whose
 * store it was read from. A school whose store is not there (being made or removed) is named in
 * `missing` and left out; the deployment's own store is read only when it is there.
 */
export async function allSchoolsEntries(
  config: Config,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; read: number; missing: string[] }> {
  const own: TrailPlace = {
    school: undefined,
    store: { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory },
  };
  const places: TrailPlace[] = [
    own,
    ...readSchools(config.dataDirectory).map((entry) => ({
      school: entry.sourcedId,
      store: schoolStoreSettings(config, entry.sourcedId),
    })),
  ];
  let entries: AuditEntry[] = [];
  let read = 0;
  const missing: string[] = [];
  for (const place of places) {
    if (!(await storeExists(place.store))) {
      if (place.school !== undefined) missing.push(place.school);
      continue;
    }
    const store = await openStore(place.store);
    try {
      const found = await auditEntries(store, query);
      entries = newestOf(
        entries,
        found.map((entry) => ({ ...entry, school: entry.school ?? place.school ?? null })),
        query.limit,
      );
      read += 1;
    } finally {
      await store.close();
    }
  }
  return { entries, read, missing };
}

import { loadConfig } from '../config/service-config';
import type { SchoolEntry } from '../district/school-entry';
import { readSchools } from '../district/school-list';
import { schoolStoreSettings } from '../district/school-store-place';
import { UsageError } from './usage-error';

/** The registered school with this sourcedId, undefined when the deployment lists none by it. */
export function registeredSchool(sourcedId: string): SchoolEntry | undefined {
  return readSchools(loadConfig().dataDirectory).find((school) => school.sourcedId === sourcedId);
}

/**
 * Points this command at a registered school's store: DATA_DIR becomes the school's folder, and on
 * PostgreSQL DATABASE_URL the school's schema in the deployment's database, for the rest of the
 * process, so that every setting read after this (the store, its key file) is the school's. Called
 * in the process that does the work (after ranWithBoundedHeap), as a child it forks would read the
 * school's folder as DATA_DIR and find no list there.
 */
export function useSchoolStore(school: SchoolEntry): void {
  const store = schoolStoreSettings(loadConfig(), school.sourcedId);
  process.env.DATA_DIR = store.dataDirectory;
  if (store.databaseUrl !== undefined) process.env.DATABASE_URL = store.databaseUrl;
  process.stderr.write(`school: ${school.sourcedId} (${school.path})\n`);
}

/** As useSchoolStore, for a sourcedId that must be a registered school's. */
export function useRegisteredSchool(sourcedId: string | undefined): void {
  if (sourcedId === undefined) return;
  const school = registeredSchool(sourcedId);
  if (!school) throw new UsageError(`no school "${sourcedId.slice(0, 80)}" in this deployment (see schools list)`);
  useSchoolStore(school);
}

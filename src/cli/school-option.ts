import { type Command, Option } from 'commander';
import { loadConfig } from '../config/service-config';
import type { SchoolEntry } from '../district/school-entry';
import { readSchools } from '../district/school-list';
import { schoolEnvironment } from '../district/school-settings';
import { schoolStoreSettings } from '../district/school-store-place';
import { UsageError } from './usage-error';

/** The registered school with this sourcedId, undefined when the deployment lists none by it. */
export function registeredSchool(sourcedId: string): SchoolEntry | undefined {
  return readSchools(loadConfig().dataDirectory).find((school) => school.sourcedId === sourcedId);
}

/**
 * Points this command at a registered school: DATA_DIR becomes the school's folder (and on
 * PostgreSQL DATABASE_URL the school's schema in the deployment's database), and the school's own
 * settings (`schools set`) replace the deployment's SIS, legacy and notification settings, for the
 * rest of the process, so that every setting read after this (the store, its key file, SIS_URL,
 * ROUTES) is the school's, as the service runs it. Called in the process that does the work (after
 * ranWithBoundedHeap), as a child it forks would read the school's folder as DATA_DIR and find no
 * list there.
 */
export function useSchoolStore(school: SchoolEntry): void {
  const store = schoolStoreSettings(loadConfig(), school.sourcedId);
  const environment = schoolEnvironment(process.env, school.settings);
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  process.env.DATA_DIR = store.dataDirectory;
  if (store.databaseUrl !== undefined) process.env.DATABASE_URL = store.databaseUrl;
  process.stderr.write(`school: ${school.sourcedId} (${school.path})\n`);
}

/** As useSchoolStore, for a sourcedId that must be a registered school's. */
export function useRegisteredSchool(sourcedId: string | undefined): void {
  // An empty SCHOOL, as a settings file may leave it, names none.
  if (sourcedId === undefined || sourcedId === '') return;
  const school = registeredSchool(sourcedId);
  if (!school) throw new UsageError(`no school "${sourcedId.slice(0, 80)}" in this deployment (see schools list)`);
  useSchoolStore(school);
}

/** --school SOURCEDID, or SCHOOL in the environment: a registered school of the deployment's. */
export function schoolOption(): Option {
  return new Option('--school <sourcedId>', "act on this school of the deployment's (see schools list)").env('SCHOOL');
}

/**
 * Gives a store command --school (or SCHOOL): before its action runs, the command is pointed at
 * the school's store and settings. Not for commands that run again in a child of bounded heap
 * (import, export, sync): they pick the school in the child (useRegisteredSchool).
 */
export function actsOnSchool(command: Command): Command {
  return command
    .addOption(schoolOption())
    .hook('preAction', (hooked) => useRegisteredSchool(hooked.opts<{ school?: string }>().school));
}

/**
 * import and sync: --school has named an org of the bundle or a school of the SIS since before
 * districts, and keeps that meaning for an org the deployment does not list; SCHOOL (the
 * environment) names a registered school only. The registered school named, if any.
 */
export function schoolOfOrg(option: string | undefined): SchoolEntry | undefined {
  const named = option ?? process.env.SCHOOL;
  if (named === undefined || named === '') return undefined;
  const school = registeredSchool(named);
  if (!school && option === undefined) {
    throw new UsageError(`no school "${named.slice(0, 80)}" in this deployment (SCHOOL; see schools list)`);
  }
  return school;
}

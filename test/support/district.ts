import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import type { SchoolEntry } from '../../src/district/school-entry';
import { writeSchools } from '../../src/district/school-list';
import { schoolStoreSettings } from '../../src/district/school-store-place';
import type { EngineSettings } from '../../src/store/engine-driver';
import { schoolStoresOf } from '../../src/store/engines';
import { openStore, type Store } from '../../src/store/open-store';
import { type CliRun, runCommand } from './cli';

/** A school of a test district: its entry, the demo school its store holds, and what else to put in it. */
export interface TestSchool {
  readonly entry: SchoolEntry;
  readonly students: number;
  readonly seed: number;
  readonly prepare?: (store: Store) => Promise<void>;
}

export interface TestDistrict {
  /** The deployment's settings: DATA_DIR (which lists the schools), and DATABASE_URL on PostgreSQL. */
  readonly settings: Record<string, string>;
  /** The deployment's store, as the engine settings name it. */
  readonly deployment: EngineSettings;
  /** The settings of a registered school's store, as the service opens it. */
  storeOf(sourcedId: string): EngineSettings;
  /** Removes DATA_DIR (a PostgreSQL database goes with its cluster). */
  remove(): void;
}

/** Runs `work` on a store opened with `settings`, closed after. */
export async function withStoreAt<T>(settings: EngineSettings, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(settings);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** How many messages the outbox of the store at `settings` holds. */
export async function outboxSize(settings: EngineSettings): Promise<number> {
  const { n } = await withStoreAt(settings, (store) =>
    store.db
      .selectFrom('outbox_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  );
  return Number(n);
}

/**
 * A district deployment on the engine `engineSettings` select (a fresh store of
 * EngineUnderTest.freshStoreSettings()): the schools listed in a new DATA_DIR, each school's store
 * made where the service looks for it and filled with a demo school of its own, and the
 * deployment's own store with `own` (a demo school of its own) when given.
 */
export async function makeTestDistrict(
  engineSettings: Record<string, string>,
  schools: readonly TestSchool[],
  own?: Omit<TestSchool, 'entry'>,
): Promise<TestDistrict> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-'));
  const settings: Record<string, string> = { ...engineSettings, DATA_DIR: dataDirectory };
  const deployment: EngineSettings = { databaseUrl: settings.DATABASE_URL || undefined, dataDirectory };
  const storeOf = (sourcedId: string) => schoolStoreSettings(deployment, sourcedId);
  writeSchools(
    dataDirectory,
    schools.map((school) => school.entry),
  );
  const fill = async (school: Omit<TestSchool, 'entry'>, store: Store) => {
    await loadDemoSchool(store, { students: school.students, seed: school.seed, startYear: 2026 });
    await school.prepare?.(store);
  };
  for (const school of schools) {
    const place = storeOf(school.entry.sourcedId);
    await schoolStoresOf(place).make(place);
    await withStoreAt(place, (store) => fill(school, store));
  }
  if (own) await withStoreAt(deployment, (store) => fill(own, store));
  return {
    settings,
    deployment,
    storeOf,
    remove: () => rmSync(dataDirectory, { recursive: true, force: true }),
  };
}

/** Runs `school-service ARGS...` as the operator does, with the deployment's settings and `env` on top. */
export function districtCli(district: TestDistrict, args: readonly string[], env: Record<string, string> = {}): CliRun {
  return runCommand({ ...district.settings, ...env }, args);
}

import type { Config } from '../config/service-config';
import { academicYearStartOf } from '../demo/calendar';
import { loadDemoSchool } from '../demo/load-demo-school';
import { log } from '../lib/log';
import type { Store } from '../store/open-store';
import { storeIsEmpty } from '../store/queries/store-facts';
import { openStoreKey } from '../store/store-key';

/** The size of the demo school a new embedded store gets on first start. */
export const FIRST_START_DEMO_STUDENTS = 500;
export const FIRST_START_DEMO_SEED = 1;

/** A new embedded store gets a small demo school, so that a first start shows real answers. */
async function fillNewEmbeddedStore(store: Store, config: Config, now: Date): Promise<void> {
  if (!store.engine.demoOnFirstStart || !config.demoData || !(await storeIsEmpty(store))) return;
  const summary = await loadDemoSchool(store, {
    students: FIRST_START_DEMO_STUDENTS,
    seed: FIRST_START_DEMO_SEED,
    startYear: academicYearStartOf(now),
  });
  log.info('new store filled with a demo school (DEMO_DATA=off prevents this)', { ...summary });
}

/**
 * What a school's store needs before anything is built on it: a new embedded store filled with the
 * demo school, and the store's own key, which seals the outbox and the callers' digest secrets.
 */
export async function firstOpen(store: Store, config: Config, now: Date): Promise<Buffer> {
  await fillNewEmbeddedStore(store, config, now);
  // The store's own key, or a refusal naming the setting to fix: never seal with another.
  const { key } = await openStoreKey(store, {
    outboxKey: config.delivery.outboxKey,
    dataDirectory: config.dataDirectory,
  });
  return key;
}

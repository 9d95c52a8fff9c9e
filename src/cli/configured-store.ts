import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsSource } from '../config/env-file';
import { type Config, loadConfig } from '../config/service-config';
import { configureLog } from '../lib/log';
import { keyFor, payloadSealer, type PayloadSealer } from '../lib/payload-sealer';
import { openStore, type Store } from '../store/open-store';
import { describeStoreKey, type KeyDescription, type KeySettings, openStoreKey } from '../store/store-key';
import { type StoreLocation, storeExists, storeLocation } from '../store/store-presence';
import { UsageError } from './usage-error';

export interface StoreCommandOptions {
  /**
   * The command reads or administers a store that must already be there (callers, audit, backup,
   * export, delivery-status): a missing one is wrong settings, not a store to create.
   */
  readonly mustExist?: boolean;
  /**
   * The command writes nothing (a dry run): a store that is not there is not made. The command
   * runs on an empty store of its own in a temporary folder, removed when it is done.
   */
  readonly createsNothing?: boolean;
}

export function keySettingsOf(config: Config): KeySettings {
  return { outboxKey: config.delivery.outboxKey, dataDirectory: config.dataDirectory };
}

function keyPhrase({ held, recorded }: KeyDescription): string {
  if (!held) return recorded ? `none held (the store's has fingerprint ${recorded})` : 'none yet';
  if (recorded === undefined)
    return `${held.origin} (fingerprint ${held.fingerprint}; the store has recorded none yet)`;
  if (recorded === held.fingerprint) return `${held.origin} (fingerprint ${held.fingerprint}, the store's)`;
  return `${held.origin} (fingerprint ${held.fingerprint}) is NOT the store's (fingerprint ${recorded})`;
}

/**
 * The line every store command prints first (on standard error, so that --json output stays
 * whole): which store, which key, and where the settings came from; never a password.
 */
export function storeBanner(where: StoreLocation, key: KeyDescription, note = ''): string {
  const store = `${where.engine} ${where.location}${note}`;
  return `store: ${store}; key: ${keyPhrase(key)}; settings: ${settingsSource()}\n`;
}

/** Refuses, with where it looked, a store that is not there. */
export async function requireExistingStore(config: Config): Promise<StoreLocation> {
  const where = storeLocation(config);
  if (!(await storeExists(config))) {
    throw new UsageError(
      `there is no store at ${where.location} (${where.setting}, settings from ${settingsSource()}): ` +
        "name the service's settings file with --env FILE or SCHOOL_SERVICE_ENV",
    );
  }
  return where;
}

/**
 * Runs `work` on the store the settings name (DATA_DIR or DATABASE_URL), after printing which
 * store and key it is, then closes it. `work` is told where the configured store is, which is
 * not where the store it gets lives when a command that creates nothing found none.
 */
export async function withConfiguredStore<T>(
  work: (store: Store, config: Config, where: StoreLocation) => Promise<T>,
  options: StoreCommandOptions = {},
): Promise<T> {
  const config = loadConfig();
  configureLog(config);
  const where = options.mustExist ? await requireExistingStore(config) : storeLocation(config);
  const standIn =
    options.createsNothing && !(await storeExists(config)) ? mkdtempSync(join(tmpdir(), 'school-dry-run-')) : undefined;
  const store = await openStore(
    standIn === undefined
      ? { databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }
      : { databaseUrl: undefined, dataDirectory: standIn },
  );
  try {
    const note = standIn === undefined ? '' : ' (not there: read as an empty store, none is made)';
    process.stderr.write(storeBanner(where, await describeStoreKey(store, keySettingsOf(config)), note));
    return await work(store, config, where);
  } finally {
    await store.close();
    if (standIn !== undefined) rmSync(standIn, { recursive: true, force: true });
  }
}

/** The sealer of callers' WS-Security digest secrets, with the store's own key (refused if this holds another). */
export async function digestSealerOf(store: Store, config: Config): Promise<PayloadSealer> {
  const { key } = await openStoreKey(store, keySettingsOf(config));
  return payloadSealer(keyFor(key, 'caller-digest-secrets'));
}

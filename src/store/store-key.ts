import { resolve } from 'node:path';
import { ConfigError } from '../config/readers';
import {
  heldOutboxKey,
  keyFingerprint,
  keyFor,
  loadOutboxKey,
  outboxKeyFile,
  payloadSealer,
} from '../lib/payload-sealer';
import type { Store } from './open-store';

/** Where a process finds its key: the OUTBOX_KEY setting, else the data folder's key file. */
export interface KeySettings {
  readonly outboxKey: string | undefined;
  readonly dataDirectory: string;
}

export interface StoreKey {
  readonly key: Buffer;
  /** 'OUTBOX_KEY' or the key file's path. */
  readonly origin: string;
  readonly fingerprint: string;
}

/** What a command says of the key: the one it holds, and whether it is the store's. */
export interface KeyDescription {
  readonly held: { readonly origin: string; readonly fingerprint: string } | undefined;
  readonly recorded: string | undefined;
}

/** A key that is not the store's, or none where the store needs one: a setting the operator must fix. */
export class StoreKeyError extends ConfigError {}

export async function recordedFingerprint(store: Store): Promise<string | undefined> {
  const row = await store.db.selectFrom('store_key').select('fingerprint').where('id', '=', 1).executeTakeFirst();
  return row?.fingerprint;
}

/** Whether `key` opens something the store already holds sealed; true when it holds nothing sealed. */
async function opensSealedData(store: Store, key: Buffer): Promise<boolean> {
  const message = await store.db.selectFrom('outbox_messages').select('payload').limit(1).executeTakeFirst();
  const caller = await store.db
    .selectFrom('callers')
    .select('digest_secret')
    .where('digest_secret', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  try {
    if (message) payloadSealer(key).open(message.payload);
    if (caller?.digest_secret) payloadSealer(keyFor(key, 'caller-digest-secrets')).open(caller.digest_secret);
    return true;
  } catch {
    return false;
  }
}

function fixIt(settings: KeySettings): string {
  return (
    `set OUTBOX_KEY to the key the service's nodes use (or, without OUTBOX_KEY, ` +
    `put their key file at ${resolve(outboxKeyFile(settings.dataDirectory))}); ` +
    "name the nodes' settings file with --env FILE or SCHOOL_SERVICE_ENV"
  );
}

function notTheStores(origin: string, held: string, recorded: string | undefined, settings: KeySettings) {
  return new StoreKeyError(
    `the key in ${origin} (fingerprint ${held}) is not the store's (fingerprint ${recorded}): ${fixIt(settings)}`,
  );
}

/**
 * The key this process may seal and open the store's data with. The store records the fingerprint
 * of the first key used with it; afterwards a process holding another key, or none (where one
 * would be made), is refused with the setting to fix, and nothing is sealed with the wrong key
 * nor a key file made. A store from before the fingerprint was kept is checked against the data it
 * already holds sealed before the key is recorded.
 */
export async function openStoreKey(store: Store, settings: KeySettings, now: Date = new Date()): Promise<StoreKey> {
  const recorded = await recordedFingerprint(store);
  const held = heldOutboxKey(settings.outboxKey, settings.dataDirectory);
  if (recorded !== undefined) {
    if (!held)
      throw new StoreKeyError(`the store's data is sealed with a key this process does not hold: ${fixIt(settings)}`);
    const fingerprint = keyFingerprint(held.key);
    if (fingerprint !== recorded) {
      throw notTheStores(held.origin, fingerprint, recorded, settings);
    }
    return { ...held, fingerprint };
  }
  const key = held?.key ?? loadOutboxKey(undefined, settings.dataDirectory);
  const origin = held?.origin ?? resolve(outboxKeyFile(settings.dataDirectory));
  const fingerprint = keyFingerprint(key);
  if (!(await opensSealedData(store, key))) {
    throw new StoreKeyError(`the key in ${origin} does not open the store's sealed data: ${fixIt(settings)}`);
  }
  await store.db
    .insertInto('store_key')
    .values({ id: 1, fingerprint, recorded_at: now.toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  // Another process may have recorded its key first: this one must be the same.
  const winner = await recordedFingerprint(store);
  if (winner !== fingerprint) {
    throw notTheStores(origin, fingerprint, winner, settings);
  }
  return { key, origin, fingerprint };
}

/** The key held and the store's, for a command's first line; makes no key and records nothing. */
export async function describeStoreKey(store: Store, settings: KeySettings): Promise<KeyDescription> {
  const held = heldOutboxKey(settings.outboxKey, settings.dataDirectory);
  return {
    held: held && { origin: held.origin, fingerprint: keyFingerprint(held.key) },
    recorded: await recordedFingerprint(store),
  };
}

import type { Kysely, KyselyConfig } from 'kysely';
import type { Engine } from './engine';
import type { EngineConnection, EngineSettings } from './engine-driver';
import { engineDriverOf } from './engines';
import { migrateToLatest } from './migrate';
import { REFERENCE_CHANNEL } from './migrations/007-reference-versions';
import { ReferenceData } from './reference-data';
import type { DirectReader } from './session';
import type { Database } from './schema';

export interface StoreSettings extends EngineSettings {
  /** Told how long each query took, in ms (the service's figures); nothing is measured without it. */
  readonly queryTook?: (ms: number) => void;
}

export interface Store {
  readonly db: Kysely<Database>;
  /** The engine's SQL where the two differ, and its name. */
  readonly engine: Engine;
  /** The driver underneath kysely, for the bulk loads kysely would make slow. */
  readonly connection: EngineConnection;
  /** Where the data lives, for logs: the SQLite file, or the PostgreSQL URL without its password. */
  readonly location: string;
  readonly reference: ReferenceData;
  readonly direct: DirectReader | undefined;
  close(): Promise<void>;
}

/** Opens the store and brings its schema up to date; a new SQLite file is created on the way. */
export async function openStore(settings: StoreSettings): Promise<Store> {
  const { queryTook } = settings;
  // Failed queries count too: a query that waits for a store that went away is the slow one to see.
  const queryLog: KyselyConfig['log'] = queryTook ? (event) => queryTook(event.queryDurationMillis) : undefined;
  const { engine, open } = engineDriverOf(settings);
  const { db, location, connection, direct, watch } = open(settings, { queryTook, queryLog });
  try {
    await migrateToLatest(db as Kysely<unknown>, engine);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const reference = new ReferenceData({ db, engine, direct }, watch?.(REFERENCE_CHANNEL));
  return {
    db,
    engine,
    connection,
    location,
    reference,
    direct,
    close: async () => {
      await reference.close();
      await db.destroy();
    },
  };
}

/** A connection of its own to a store another has opened (and migrated): a writer thread's. */
export interface StoreConnection {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  readonly connection: EngineConnection;
  close(): Promise<void>;
}

/** Opens one more connection to the store, without migrating it or keeping its reference data. */
export function openStoreConnection(settings: StoreSettings): StoreConnection {
  const { engine, open } = engineDriverOf(settings);
  const { db, connection } = open(settings, { poolSize: 1 });
  return { db, engine, connection, close: () => db.destroy() };
}

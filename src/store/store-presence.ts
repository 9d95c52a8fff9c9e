import type { EngineSettings } from './engine-driver';
import { ENGINE_DRIVERS, engineDriverOf } from './engines';

export interface StoreLocation {
  /** The engine's name for people: SQLite or PostgreSQL. */
  readonly engine: string;
  /** The SQLite file's absolute path, or the PostgreSQL URL without its password. */
  readonly location: string;
  /** The setting that says where it is, as a message names it: DATA_DIR=FOLDER or DATABASE_URL. */
  readonly setting: string;
}

/** Where the settings put the store, without opening it. */
export function storeLocation(settings: EngineSettings): StoreLocation {
  const driver = engineDriverOf(settings);
  return { engine: driver.engine.title, location: driver.location(settings), setting: driver.setting(settings) };
}

/**
 * Whether a store is there, looked for without creating one: the SQLite file, or a PostgreSQL
 * database that holds the service's schema (its migrations' record). Opening the store would make
 * a new SQLite file, or the schema in an empty database.
 */
export function storeExists(settings: EngineSettings): Promise<boolean> {
  return engineDriverOf(settings).exists(settings);
}

/**
 * The files the settings' data folder holds of a live store, whatever the engine: an embedded
 * store left beside a PostgreSQL one is a store, not a backup.
 */
export function liveStoreFiles(settings: EngineSettings): string[] {
  return ENGINE_DRIVERS.flatMap((driver) => driver.liveFiles(settings));
}

import type { Kysely } from 'kysely';
import type { Engine } from './engine';
import type { EngineDriver, EngineSettings, SchoolStores } from './engine-driver';
import { postgresDriver } from './postgres/driver';
import { sqliteDriver } from './sqlite/driver';
import { sqliteInMemory } from './sqlite/memory-store';

/** Every engine the store runs on. */
export const ENGINE_DRIVERS: readonly EngineDriver[] = [sqliteDriver, postgresDriver];

/** The engine the settings select: PostgreSQL when they name a database URL, the embedded SQLite file otherwise. */
export function engineDriverOf(settings: EngineSettings): EngineDriver {
  return settings.databaseUrl ? postgresDriver : sqliteDriver;
}

/** Where the settings' engine keeps the stores of a district's schools. */
export function schoolStoresOf(settings: EngineSettings): SchoolStores {
  return engineDriverOf(settings).schools;
}

/** An empty store in memory, to learn what any new store holds once migrated; destroy it when done. */
export function scratchStore(): { readonly engine: Engine; readonly db: Kysely<unknown> } {
  return { engine: sqliteDriver.engine, db: sqliteInMemory() };
}

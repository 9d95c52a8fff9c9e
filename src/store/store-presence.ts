import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { sqliteFileOf, withoutPassword } from './open-store';

export interface StoreLocation {
  readonly engine: 'sqlite' | 'postgres';
  /** The SQLite file's absolute path, or the PostgreSQL URL without its password. */
  readonly location: string;
}

/** Where the settings put the store, without opening it. */
export function storeLocation(settings: { databaseUrl: string | undefined; dataDirectory: string }): StoreLocation {
  return settings.databaseUrl
    ? { engine: 'postgres', location: withoutPassword(settings.databaseUrl) }
    : { engine: 'sqlite', location: resolve(sqliteFileOf(settings.dataDirectory)) };
}

/** PostgreSQL's answer when the database named does not exist. */
const UNKNOWN_DATABASE = '3D000';

/**
 * Whether a store is there, looked for without creating one: the SQLite file, or a PostgreSQL
 * database that holds the service's schema (its migrations' record). Opening the store would make
 * a new SQLite file, or the schema in an empty database.
 */
export async function storeExists(settings: {
  databaseUrl: string | undefined;
  dataDirectory: string;
}): Promise<boolean> {
  if (!settings.databaseUrl) return existsSync(sqliteFileOf(settings.dataDirectory));
  const client = new Client({ connectionString: settings.databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNKNOWN_DATABASE) return false;
    // Said with the store's address (never its password); the code stays, to tell a setting to fix from an outage.
    const reason = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`cannot reach the store at ${withoutPassword(settings.databaseUrl)}: ${reason}`), {
      code,
    });
  }
  try {
    const { rows } = await client.query<{ present: boolean }>(
      "select to_regclass('kysely_migration') is not null as present",
    );
    return rows[0]?.present === true;
  } finally {
    await client.end();
  }
}

import { Client } from 'pg';
import { withoutPassword } from './url';

/** PostgreSQL's answer when the database named does not exist. */
const UNKNOWN_DATABASE = '3D000';

/**
 * Whether the database holds the service's schema (its migrations' record), looked for without
 * creating it: opening the store would make the schema in an empty database.
 */
export async function postgresStoreExists(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === UNKNOWN_DATABASE) return false;
    // Said with the store's address (never its password); the code stays, to tell a setting to fix from an outage.
    const reason = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`cannot reach the store at ${withoutPassword(databaseUrl)}: ${reason}`), {
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

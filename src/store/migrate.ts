import { Migrator, type Kysely, type Migration } from 'kysely';
import type { Engine } from './engine';
import * as school from './migrations/001-school';
import * as documents from './migrations/002-documents';
import * as notifications from './migrations/003-notifications';
import * as access from './migrations/004-access';
import * as roster from './migrations/005-roster';

/**
 * The migrations in order. Each is written once for both engines and told which one it runs on
 * where their SQL differs (identity and binary columns).
 */
const MIGRATIONS: ReadonlyArray<[name: string, up: (db: Kysely<unknown>, engine: Engine) => Promise<void>]> = [
  ['001-school', school.up],
  ['002-documents', documents.up],
  ['003-notifications', notifications.up],
  ['004-access', access.up],
  ['005-roster', roster.up],
];

export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<string[]> {
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.map(([name, up]) => [name, { up: (migrating: Kysely<unknown>) => up(migrating, engine) }]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

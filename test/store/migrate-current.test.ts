import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../src/config/service-config';
import { migrateToLatest } from '../../src/store/migrate';
import { openStore, type Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';

/**
 * Opening a store whose migrations are this version's reads one record and runs nothing (a
 * district opens a school's store at its first request after idle, so this is on a caller's
 * path); a store that is not current is still left to the migrator, which refuses a store a newer
 * version has migrated.
 */

/** Opens the store of `settings`, counting every statement run on it from then on. */
async function openCounted(settings: Record<string, string>): Promise<{ store: Store; statements: () => number }> {
  const config = loadConfig(settings);
  let statements = 0;
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDirectory: config.dataDirectory,
    queryTook: () => {
      statements += 1;
    },
  });
  return { store, statements: () => statements };
}

describeEachEngine('migrating a store that is current', (engine) => {
  test('a current store is opened with one read of its migrations (and, on PostgreSQL, of its schema)', async () => {
    const settings = engine.freshStoreSettings();
    // The first open makes and migrates the store: many statements.
    const first = await openCounted(settings);
    const migrating = first.statements();
    await first.store.close();
    const again = await openCounted(settings);
    try {
      expect(migrating).toBeGreaterThan(20);
      expect(again.statements()).toBeLessThanOrEqual(engine.engine === 'postgres' ? 2 : 1);
      expect(await migrateToLatest(again.store.db as unknown as Kysely<unknown>, again.store.engine)).toEqual([]);
    } finally {
      await again.store.close();
    }
  });

  test('a store migrated by a newer version (a migration this one does not know) is still refused', async () => {
    const settings = engine.freshStoreSettings();
    const { store } = await openCounted(settings);
    try {
      const now = new Date().toISOString();
      await sql`insert into kysely_migration (name, timestamp) values ('999-from-a-newer-version', ${now})`.execute(
        store.db,
      );
      await expect(migrateToLatest(store.db as unknown as Kysely<unknown>, store.engine)).rejects.toThrow(
        /999-from-a-newer-version/,
      );
    } finally {
      await store.close();
    }
  });

  test('a store without the record of one migration is handed to the migrator, not taken as current', async () => {
    const settings = engine.freshStoreSettings();
    const { store } = await openCounted(settings);
    try {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
      const last = rows[rows.length - 1].name;
      await sql`delete from kysely_migration where name = ${last}`.execute(store.db);
      // The migrator runs the last migration again, on tables it already made: it fails, or it runs it.
      const outcome = await migrateToLatest(store.db as unknown as Kysely<unknown>, store.engine).then(
        (ran) => ran,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      expect(outcome).not.toEqual([]);
    } finally {
      await store.close();
    }
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, startTestPostgres, type TestPostgres } from './postgres';
import { describeOnPostgres } from './tools';

/**
 * Runs a suite once per store engine: the embedded SQLite file and a throwaway PostgreSQL
 * cluster. Under CI=true a missing PostgreSQL fails the suite instead of skipping it.
 */
/** The engine a suite runs on, by the name the store gives it (`store.engine.name`). */
export type EngineName = 'sqlite' | 'postgres';

export interface EngineUnderTest {
  readonly engine: EngineName;
  /** Settings that select this engine for a service or a store, each call a fresh, empty store. */
  freshStoreSettings(): Record<string, string>;
  /** The folders whose files hold the store beyond DATA_DIR: the PostgreSQL cluster's data folder. */
  storeFolders(): string[];
}

let databaseCounter = 0;

export function describeEachEngine(name: string, body: (engine: EngineUnderTest) => void): void {
  describe(`${name} on SQLite`, () => {
    body({
      engine: 'sqlite',
      freshStoreSettings: () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'school-store-')) }),
      storeFolders: () => [],
    });
  });

  describeOnPostgres()(`${name} on PostgreSQL`, () => {
    let cluster: TestPostgres | undefined;
    beforeAll(async () => {
      cluster = await startTestPostgres();
    });
    body({
      engine: 'postgres',
      freshStoreSettings: () => {
        if (!cluster) throw new Error('PostgreSQL did not start');
        databaseCounter += 1;
        return { DATABASE_URL: createDatabase(cluster.url, `school_${databaseCounter}`) };
      },
      storeFolders: () => (cluster ? [cluster.dataDirectory] : []),
    });
    // Declared after the suite's own hooks, so that it runs after them: jest runs afterAll hooks
    // in the order they are declared, and the suite's services must close before their server stops.
    afterAll(() => cluster?.stop());
  });
}

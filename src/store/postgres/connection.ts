import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import type { EngineConnection } from '../engine-driver';
import type { Database } from '../schema';
import { appendPostgresAuditBatch } from './audit-batch';
import { postgresBulkWriter } from './bulk-writer';
import { postgresImportConnection } from './import-connection';
import { scrubPostgresFiles } from './scrub-files';
import { postgresSnapshot } from './snapshot-reader';
import { postgresTableWriter } from './table-writer';

/** The driver's work on PostgreSQL: each long piece of work on a client of the pool of its own. */
export function postgresConnection(pool: Pool, db: Kysely<Database>): EngineConnection {
  return {
    bulkWriter: () => postgresBulkWriter(pool),
    importConnection: async () => postgresImportConnection(await pool.connect()),
    tableWriter: () => postgresTableWriter(pool),
    snapshot: () => postgresSnapshot(pool),
    appendAuditBatch: (events, subjects) => appendPostgresAuditBatch(db, events, subjects),
    scrubAfter: (erase, tables) => scrubPostgresFiles(db as unknown as Kysely<unknown>, erase, tables),
  };
}

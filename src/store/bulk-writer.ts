import type { Insertable } from 'kysely';
import type { Database } from './schema';

/**
 * Writes many rows fast, for the demo generator and imports, each engine its fastest way (its
 * bulk-writer.ts). Rows carry their own ids, so identity sequences are moved past them when the
 * load finishes.
 */
export type Row<Table extends keyof Database> = Insertable<Database[Table]> & { id?: number };

export interface BulkWriter {
  insert<Table extends keyof Database>(table: Table, rows: ReadonlyArray<Row<Table>>): Promise<void>;
  /** Commits everything written; nothing is visible to others before. */
  finish(): Promise<void>;
  /** Abandons everything written. */
  abort(): Promise<void>;
}

/** The store's bulk writer: everything written is visible to others once it finishes. */
export function openBulkWriter(connection: { bulkWriter(): BulkWriter }): BulkWriter {
  return connection.bulkWriter();
}

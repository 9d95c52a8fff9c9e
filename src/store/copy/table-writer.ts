import type { Row } from './snapshot-reader';

/** Writes whole rows into a store inside one transaction, committed only once every count is checked. */
export interface TableWriter {
  clear(table: string): Promise<void>;
  insert(table: string, rows: readonly Row[]): Promise<void>;
  count(table: string): Promise<number>;
  /** Moves an identity column's sequence past the ids copied in (PostgreSQL; SQLite takes the next rowid). */
  continueIds(table: string): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** A writer into the store, in a transaction of its own. */
export function openTableWriter(store: {
  readonly connection: { tableWriter(): Promise<TableWriter> };
}): Promise<TableWriter> {
  return store.connection.tableWriter();
}

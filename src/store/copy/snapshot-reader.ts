export type Row = Record<string, unknown>;

/** One consistent moment of a store, read table by table in batches while it may go on serving. */
export interface SnapshotReader {
  count(table: string): Promise<number>;
  batches(table: string): AsyncIterable<Row[]>;
  close(): Promise<void>;
}

/** Rows a batch holds. */
export const BATCH_ROWS = 2_000;

/** A table or column name as an SQL identifier (the names come from the store's own catalog). */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** One consistent moment of the store, held until the reader is closed. */
export function openSnapshot(store: {
  readonly connection: { snapshot(): Promise<SnapshotReader> };
}): Promise<SnapshotReader> {
  return store.connection.snapshot();
}

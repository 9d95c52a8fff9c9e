import type { Engine } from '../engine';

/** Rows that point to nothing, found before an import commits: how many, and the first's tables. */
export interface DanglingRows {
  readonly count: number;
  readonly table: string;
  readonly parent: string;
}

/**
 * One connection held for a whole import, since its staging tables are temporary and live only on
 * the connection that made them. SQL is written with `?` placeholders (each engine numbers them
 * as it must), and in the engine's spelling where the two differ (`engine`).
 */
export interface ImportConnection {
  readonly engine: Engine;
  run(sql: string, parameters?: readonly unknown[]): Promise<number>;
  all<Row>(sql: string, parameters?: readonly unknown[]): Promise<Row[]>;
  /** Inserts rows (values in `columns` order) in as few statements as the engine allows. */
  insert(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
    suffix?: string,
  ): Promise<void>;
  /** Writes to staging tables, in a transaction of their own where the engine writes faster in one. */
  staging(write: () => Promise<void>): Promise<void>;
  /** Begins the transaction that changes the school, its foreign keys checked only before the commit. */
  beginSchoolChange(): Promise<void>;
  /**
   * Before the commit: the rows that point to nothing, where the engine leaves the check to the
   * import, and the identity sequences of `tablesWithIds` moved past the ids written.
   */
  settleSchoolChange(tablesWithIds: readonly string[]): Promise<DanglingRows | undefined>;
  commitSchoolChange(): Promise<void>;
  abortSchoolChange(): Promise<void>;
  release(): Promise<void>;
}

export async function openImportConnection(connection: {
  importConnection(): Promise<ImportConnection>;
}): Promise<ImportConnection> {
  return connection.importConnection();
}

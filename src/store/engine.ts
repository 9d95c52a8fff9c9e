import { type ColumnDataType, type ColumnDefinitionBuilder, type Kysely, type RawBuilder, sql } from 'kysely';

/** A table's reference to another, as the store's catalog lists its foreign keys. */
export interface TableReference {
  readonly table: string;
  readonly references: string;
}

/** A column of a table, as the store's catalog lists it. */
export interface StoreColumn {
  readonly table: string;
  readonly column: string;
}

/** A table whose changes a counter counts: every row, or the rows `except` and `only` say. */
export interface CountedTable {
  readonly table: string;
  /** Rows whose column holds this value are not counted (the marks' ledger entries). */
  readonly except?: { readonly column: string; readonly value: string };
  /** Only rows whose column holds one of these values are counted (the users' ledger entries). */
  readonly only?: { readonly column: string; readonly values: readonly string[] };
}

/** The condition a changed row is counted by (`row`: its alias, or none), or undefined: every row. */
export function countedRows(counted: CountedTable, row?: string): RawBuilder<unknown> | undefined {
  const column = (name: string) => (row ? sql`${sql.raw(row)}.${sql.id(name)}` : sql.id(name));
  if (counted.except) return sql`${column(counted.except.column)} <> ${sql.lit(counted.except.value)}`;
  if (counted.only)
    return sql`${column(counted.only.column)} in (${sql.join(counted.only.values.map((value) => sql.lit(value)))})`;
  return undefined;
}

/**
 * Where the SQL of the two database engines differs, each engine's way, behind one interface (as
 * kysely keeps a dialect): `src/store/sqlite/` and `src/store/postgres/` each give one. Everything
 * else in the store asks the session's engine for the piece that differs and never asks which
 * engine it is; everything outside the store does not know there are two.
 */
export interface Engine {
  /** Its short name, as logs, the status page and the backup list show it: sqlite or postgres. */
  readonly name: string;
  /** Its name for people: SQLite or PostgreSQL. */
  readonly title: string;
  /**
   * Whether a new, empty store gets the demo school on the service's first start: the embedded
   * store, so that a first start shows real answers; a server's database is never filled unasked.
   */
  readonly demoOnFirstStart: boolean;

  /** Every row of a select of `fields` as one JSON array of arrays (text on SQLite, parsed by pg). */
  jsonRows(fields: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The end of a claim's select that lets concurrent claimers pass over each other's rows (or nothing). */
  readonly claimLock: RawBuilder<unknown>;
  /** Serialises concurrent counts of these rate-limit buckets until the transaction ends, in the order given. */
  lockBuckets(db: Kysely<unknown>, buckets: readonly string[]): Promise<void>;
  /** The store's size in bytes. */
  sizeBytes(db: Kysely<unknown>): Promise<number>;
  /** The store's own tables (none of the engine's), by name. */
  tableNames(db: Kysely<unknown>): Promise<string[]>;
  /**
   * The schema the store's tables are made in, where the engine has schemas; the migrations keep
   * their record there, so that another store's record in the same database is never taken for it.
   */
  storeSchema(db: Kysely<unknown>): Promise<string | undefined>;
  /** The foreign keys among the store's tables. */
  foreignKeys(db: Kysely<unknown>): Promise<TableReference[]>;
  /** Every column of the store's own tables. */
  columns(db: Kysely<unknown>): Promise<StoreColumn[]>;
  /** Tells other processes at once that reference data changed, where the engine can (the version says so too). */
  announceReferenceChange(db: Kysely<unknown>, channel: string): Promise<void>;

  /** The keyword of CREATE … TABLE for a table of the connection alone. */
  readonly temporaryTable: string;
  /** The column type of a double-precision number. */
  readonly floatType: string;
  /** SELECT of the distinct keys of the JSON objects in `table`.`column` of the rows `where` picks, as `name`. */
  jsonKeys(table: string, column: string, where: string): string;
  /** The text of one key of the JSON object in `column`; the key is its one parameter (`jsonKeyParameter`). */
  jsonText(column: string): string;
  /** The parameter `jsonText` takes for the key `key`. */
  jsonKeyParameter(key: string): string;

  /** A migration's integer primary key whose values the store gives out. */
  identityPrimaryKey(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** The column type of bytes. */
  readonly binaryType: ColumnDataType;
  /** The end of CREATE TABLE for a table only ever appended to in the order of its primary key. */
  readonly appendOnlyTable: RawBuilder<unknown>;
  /** Makes these foreign keys (table, column) checkable at the end of a transaction that asks for it. */
  deferrableReferences(db: Kysely<unknown>, references: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /**
   * Triggers that move reference_versions on (and announce it on `channel` where the engine can)
   * after any change to these tables, whoever makes it.
   */
  countChanges(db: Kysely<unknown>, tables: readonly string[], channel: string): Promise<void>;
  /**
   * Triggers that move the one row of `counter` (id 1, column version) on after any change to these
   * tables, whoever makes it, but for the rows a table's `except` names: a change of those alone
   * moves nothing.
   */
  countRowChanges(db: Kysely<unknown>, counter: string, tables: readonly CountedTable[]): Promise<void>;
  /**
   * Lets a column hold NULL. `rebuild` makes the table anew with the column nullable and its rows
   * copied, for an engine that cannot alter a column: it runs with foreign keys unchecked.
   */
  dropNotNull(db: Kysely<unknown>, table: string, column: string, rebuild: () => Promise<void>): Promise<void>;
  /** Runs `work` with the space of what it deletes or overwrites zeroed where the engine can. */
  withSecureDelete<T>(db: Kysely<unknown>, work: () => Promise<T>): Promise<T>;
}

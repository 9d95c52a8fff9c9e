import type BetterSqlite3 from 'better-sqlite3';
import type { PoolClient } from 'pg';
import type { Engine } from '../engine';
import type { Connection } from '../open-store';

/**
 * One connection held for a whole import, since its staging tables are temporary and live only on
 * the connection that made them. SQL is written with `?` placeholders, numbered for PostgreSQL here.
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
  release(): Promise<void>;
}

/** Bound parameters per statement, under PostgreSQL's 65,535. */
const POSTGRES_PARAMETERS = 30_000;

function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

export async function openImportConnection(connection: Connection): Promise<ImportConnection> {
  return connection.engine === 'sqlite'
    ? sqliteConnection(connection.database)
    : postgresConnection(await connection.pool.connect());
}

function sqliteConnection(database: BetterSqlite3.Database): ImportConnection {
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    engine: 'sqlite',
    async run(sql, parameters = []) {
      // A pragma answers with rows; anything else reports the rows it changed.
      const statement = prepare(sql);
      return statement.reader ? statement.all(...parameters).length : statement.run(...parameters).changes;
    },
    async all<Row>(sql: string, parameters: readonly unknown[] = []) {
      return prepare(sql).all(...parameters) as Row[];
    },
    async insert(table, columns, rows, suffix = '') {
      if (rows.length === 0) return;
      const statement = prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${suffix}`,
      );
      for (const row of rows) statement.run(...row);
    },
    async release() {},
  };
}

function postgresConnection(client: PoolClient): ImportConnection {
  return {
    engine: 'postgres',
    async run(sql, parameters = []) {
      return (await client.query(numbered(sql), [...parameters])).rowCount ?? 0;
    },
    async all<Row>(sql: string, parameters: readonly unknown[] = []) {
      return (await client.query(numbered(sql), [...parameters])).rows as Row[];
    },
    async insert(table, columns, rows, suffix = '') {
      const perStatement = Math.max(1, Math.floor(POSTGRES_PARAMETERS / columns.length));
      for (let start = 0; start < rows.length; start += perStatement) {
        const chunk = rows.slice(start, start + perStatement);
        const values: unknown[] = [];
        const tuples = chunk.map((row) => `(${row.map((value) => `$${values.push(value)}`).join(', ')})`);
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}${suffix}`, values);
      }
    },
    async release() {
      client.release();
    },
  };
}

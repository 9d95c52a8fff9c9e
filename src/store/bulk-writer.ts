import type { Insertable } from 'kysely';
import type { Connection } from './open-store';
import type { Database } from './schema';

/**
 * Writes many rows fast, for the demo generator and imports: on SQLite one prepared statement per
 * table inside one transaction; on PostgreSQL multi-row INSERTs of a few hundred rows. Rows carry
 * their own ids, so identity sequences are moved past them when the load finishes.
 */
export type Row<Table extends keyof Database> = Insertable<Database[Table]> & { id?: number };

export interface BulkWriter {
  insert<Table extends keyof Database>(table: Table, rows: ReadonlyArray<Row<Table>>): Promise<void>;
  /** Commits everything written; nothing is visible to others before. */
  finish(): Promise<void>;
  /** Abandons everything written. */
  abort(): Promise<void>;
}

const POSTGRES_ROWS_PER_INSERT = 500;

function sqliteWriter(database: import('better-sqlite3').Database): BulkWriter {
  const statements = new Map<string, import('better-sqlite3').Statement>();
  database.exec('BEGIN');
  return {
    async insert(table, rows) {
      if (rows.length === 0) return;
      const columns = Object.keys(rows[0]);
      const key = `${table}(${columns.join(',')})`;
      let statement = statements.get(key);
      if (!statement) {
        statement = database.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
        );
        statements.set(key, statement);
      }
      for (const row of rows) statement.run(row);
    },
    async finish() {
      database.exec('COMMIT');
    },
    async abort() {
      if (database.inTransaction) database.exec('ROLLBACK');
    },
  };
}

function postgresWriter(pool: import('pg').Pool): BulkWriter {
  const clientPromise = pool.connect().then(async (client) => {
    await client.query('BEGIN');
    return client;
  });
  /** Tables written with explicit ids, whose identity sequences must move past them. */
  const tablesWithIds = new Set<string>();
  let released = false;
  const release = async (statement: string) => {
    const client = await clientPromise;
    if (released) return;
    released = true;
    try {
      await client.query(statement);
    } finally {
      client.release();
    }
  };
  return {
    async insert(table, rows) {
      if (rows.length === 0) return;
      const client = await clientPromise;
      const columns = Object.keys(rows[0]);
      if (columns.includes('id')) tablesWithIds.add(table);
      for (let start = 0; start < rows.length; start += POSTGRES_ROWS_PER_INSERT) {
        const chunk = rows.slice(start, start + POSTGRES_ROWS_PER_INSERT);
        const values: unknown[] = [];
        const tuples = chunk.map((row) => {
          const record = row as Record<string, unknown>;
          return `(${columns.map((column) => `$${values.push(record[column])}`).join(', ')})`;
        });
        await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
      }
    },
    async finish() {
      const client = await clientPromise;
      for (const table of tablesWithIds) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), ` +
            `COALESCE((SELECT MAX(id) FROM ${table}), 0) + 1, false)`,
        );
      }
      await release('COMMIT');
    },
    async abort() {
      await release('ROLLBACK');
    },
  };
}

export function openBulkWriter(connection: Connection): BulkWriter {
  return connection.engine === 'sqlite' ? sqliteWriter(connection.database) : postgresWriter(connection.pool);
}

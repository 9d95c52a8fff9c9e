import type { Pool } from 'pg';
import type { BulkWriter } from '../bulk-writer';

const POSTGRES_ROWS_PER_INSERT = 500;

/** PostgreSQL: multi-row INSERTs of a few hundred rows on one connection, in one transaction. */
export function postgresBulkWriter(pool: Pool): BulkWriter {
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

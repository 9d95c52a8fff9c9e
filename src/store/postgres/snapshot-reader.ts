import type { Pool, PoolClient } from 'pg';
import { BATCH_ROWS, quoted, type Row, type SnapshotReader } from '../copy/snapshot-reader';

/** PostgreSQL: a repeatable-read, read-only transaction, each table read through a cursor. */
export async function postgresSnapshot(pool: Pool): Promise<SnapshotReader> {
  const client: PoolClient = await pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
  } catch (error) {
    client.release();
    throw error;
  }
  return {
    count: async (table) => Number((await client.query(`select count(*) as n from ${quoted(table)}`)).rows[0].n),
    async *batches(table) {
      await client.query(`declare copy_rows no scroll cursor for select * from ${quoted(table)}`);
      try {
        for (;;) {
          const { rows } = await client.query<Row>(`fetch ${BATCH_ROWS} from copy_rows`);
          if (rows.length === 0) break;
          yield rows;
        }
      } finally {
        await client.query('close copy_rows');
      }
    },
    close: async () => {
      try {
        await client.query('commit');
      } finally {
        client.release();
      }
    },
  };
}

import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import type { DirectReader } from '../session';

/**
 * Runs a compiled read on PostgreSQL as a named prepared statement: each pooled connection parses
 * and plans it once, then only binds and executes it. kysely sends every query unnamed, which
 * makes PostgreSQL parse and plan a five-table join again on every call, more CPU than running
 * it. The name is a digest of the SQL, so one text always has one name.
 */
export function postgresDirectReader(pool: Pool, queryTook: ((ms: number) => void) | undefined): DirectReader {
  const names = new Map<string, string>();
  const nameOf = (sql: string): string => {
    let name = names.get(sql);
    if (name === undefined) {
      name = `q${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      names.set(sql, name);
    }
    return name;
  };
  return {
    all: async (sql, parameters) => {
      const started = performance.now();
      try {
        const result = await pool.query({ name: nameOf(sql), text: sql, values: parameters as unknown[] });
        return result.rows;
      } finally {
        queryTook?.(performance.now() - started);
      }
    },
  };
}

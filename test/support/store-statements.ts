import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';

/** A statement a store ran: its SQL, and its store (the SQLite file, or the PostgreSQL connection's options). */
export interface StoreStatement {
  readonly sql: string;
  readonly store: string;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Wraps `methods` of `prototype` to record each call; returns the undoing. */
function recordCalls(
  prototype: Record<string, unknown>,
  methods: readonly string[],
  record: (self: unknown, args: unknown[]) => void,
) {
  const originals = methods.map((method) => [method, prototype[method] as Method] as const);
  for (const [method, original] of originals) {
    prototype[method] = function (this: unknown, ...args: unknown[]) {
      record(this, args);
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [method, original] of originals) prototype[method] = original;
  };
}

/**
 * Every statement this process's stores run while `work` does, on either engine, with the store
 * each ran on: for SQLite the file of the statement's database, for PostgreSQL the startup options
 * of the client that sent it (a district school's search_path; "" for the deployment's own store).
 */
export async function storeStatementsDuring(work: () => Promise<unknown>): Promise<StoreStatement[]> {
  const statements: StoreStatement[] = [];
  const probe = new BetterSqlite3(':memory:');
  const sqlitePrototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  const undoSqlite = recordCalls(sqlitePrototype, ['all', 'get', 'run', 'iterate'], (self) => {
    const statement = self as { source: string; database: { name: string } };
    statements.push({ sql: statement.source, store: statement.database.name });
  });
  const undoPostgres = recordCalls(Client.prototype as unknown as Record<string, unknown>, ['query'], (self, args) => {
    const first = args[0] as string | { text?: string } | undefined;
    const sql = typeof first === 'string' ? first : (first?.text ?? '');
    const options = (self as { connectionParameters?: { options?: string } }).connectionParameters?.options;
    statements.push({ sql, store: options ?? '' });
  });
  try {
    await work();
  } finally {
    undoSqlite();
    undoPostgres();
  }
  return statements;
}

import type { Kysely } from 'kysely';
import type { Engine } from './engine';
import type { Database } from './schema';

/**
 * What a query runs on: the database, or a transaction in it, and which engine it is, for the few
 * statements whose SQL differs between SQLite and PostgreSQL. The store is a session; so is each
 * transaction opened with inTransaction.
 */
export interface Session {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
}

/** Runs `work` in one transaction: everything it does through the session it gets commits, or none of it. */
export function inTransaction<T>(session: Session, work: (transaction: Session) => Promise<T>): Promise<T> {
  return session.db.transaction().execute((db) => work({ db, engine: session.engine }));
}

import type { Kysely } from 'kysely';
import type { Engine } from './engine';
import type { NoteType } from '../contract/operation-types';
import type { Database } from './schema';

/** The reference data a session's store keeps in memory (store/reference-data.ts says how it stays current). */
export interface ReferenceCopy {
  currentTermId(today: string): Promise<number | undefined>;
  noteTypes(): Promise<NoteType[]>;
  absenceTypeNames(): Promise<Map<number, string>>;
}

/**
 * Runs a compiled read by a shorter way than kysely's executor: on SQLite at once on the prepared
 * statement (store/sqlite/direct-reader.ts), on PostgreSQL as a named prepared statement
 * (store/postgres/direct-reader.ts).
 */
export interface DirectReader {
  /** The rows; undefined when the read must go through kysely instead (a transaction holds the connection). */
  all(sql: string, parameters: readonly unknown[]): unknown[] | Promise<unknown[]> | undefined;
}

/**
 * What a query runs on: the database, or a transaction in it, and its engine, which gives the few
 * pieces of SQL that differ between SQLite and PostgreSQL. The store is a session; so is each
 * transaction opened with inTransaction, without the store's direct reader.
 */
export interface Session {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** The store's kept copy of its reference data; a session without one reads the tables. */
  readonly reference?: ReferenceCopy;
  /** The store's shorter way for compiled reads, outside transactions. */
  readonly direct?: DirectReader;
  /** Set on a rehearsal's session: every transaction on it is taken back (see inTransaction). */
  readonly rehearsal?: true;
}

/** Thrown to end a rehearsal's transaction, which takes back everything it did. */
class TakenBack extends Error {}

/**
 * The session a rehearsal runs on: it reads the store as any call does, and every transaction it
 * opens is rolled back at its end, as a queue-or-rehearse insert rolls back its savepoint, so that
 * a write operation can be checked and computed in full with nothing stored.
 */
export function rehearsalSession(session: Session): Session {
  return {
    db: session.db,
    engine: session.engine,
    reference: session.reference,
    direct: session.direct,
    rehearsal: true,
  };
}

/** Runs `work` in one transaction: everything it does through the session it gets commits, or none of it. */
export function inTransaction<T>(session: Session, work: (transaction: Session) => Promise<T>): Promise<T> {
  if (session.rehearsal) return rehearse(session, work);
  return session.db.transaction().execute((db) => work({ db, engine: session.engine, reference: session.reference }));
}

/** Runs `work` in a transaction that is rolled back whatever it does, and gives what it returned. */
async function rehearse<T>(session: Session, work: (transaction: Session) => Promise<T>): Promise<T> {
  let result: { value: T } | undefined;
  try {
    await session.db.transaction().execute(async (db) => {
      result = { value: await work({ db, engine: session.engine, reference: session.reference, rehearsal: true }) };
      throw new TakenBack();
    });
  } catch (error) {
    if (!(error instanceof TakenBack) || result === undefined) throw error;
  }
  return (result as { value: T }).value;
}

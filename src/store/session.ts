import type { Kysely } from 'kysely';
import type { Engine } from './engine';
import type { NoteType } from '../contract/operation-types';
import type { Database } from './schema';

/** The reference data a session's store keeps in memory (store/reference-data.ts says how it stays current). */
export interface ReferenceCopy {
  currentAcademicYearId(today: string): Promise<number | undefined>;
  currentTermId(today: string): Promise<number | undefined>;
  noteTypes(): Promise<NoteType[]>;
  absenceTypeNames(): Promise<Map<number, string>>;
}

/** Runs a compiled read at once on the embedded store (store/direct-reader.ts). */
export interface DirectReader {
  /** The rows; undefined when the read must go through kysely instead (a transaction holds the connection). */
  all(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
}

/**
 * What a query runs on: the database, or a transaction in it, and which engine it is, for the few
 * statements whose SQL differs between SQLite and PostgreSQL. The store is a session; so is each
 * transaction opened with inTransaction, without the store's direct reader.
 */
export interface Session {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** The store's kept copy of its reference data; a session without one reads the tables. */
  readonly reference?: ReferenceCopy;
  /** The embedded store's shortcut for compiled reads. */
  readonly direct?: DirectReader;
}

/** Runs `work` in one transaction: everything it does through the session it gets commits, or none of it. */
export function inTransaction<T>(session: Session, work: (transaction: Session) => Promise<T>): Promise<T> {
  return session.db.transaction().execute((db) => work({ db, engine: session.engine, reference: session.reference }));
}

import type { Insertable } from 'kysely';
import type { GeneratedDocumentTable } from '../schema';
import type { Session } from '../session';

/** Issued documents, found by the fingerprint of their inputs. */

export interface StoredDocument {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly content: Buffer;
  readonly contentHash: string;
  readonly issuedOn: string;
}

export type NewDocument = Omit<Insertable<GeneratedDocumentTable>, 'id'>;

const STORED_DOCUMENT = [
  'file_name as fileName',
  'content_type as contentType',
  'size',
  'content',
  'content_hash as contentHash',
  'issued_on as issuedOn',
] as const;

export async function findDocument(session: Session, inputFingerprint: string): Promise<StoredDocument | undefined> {
  const { db } = session;
  return db
    .selectFrom('generated_documents')
    .select(STORED_DOCUMENT)
    .where('input_fingerprint', '=', inputFingerprint)
    .executeTakeFirst();
}

/**
 * Stores a document unless one with the same fingerprint is there already, and returns the one
 * stored. When two requests render the same document at once (two processes sharing
 * PostgreSQL), the first to commit wins and both answer with its file.
 */
export async function storeDocument(session: Session, document: NewDocument): Promise<StoredDocument> {
  const inserted = await session.db
    .insertInto('generated_documents')
    .values(document)
    .onConflict((conflict) => conflict.column('input_fingerprint').doNothing())
    .returning(STORED_DOCUMENT)
    .executeTakeFirst();
  const stored = inserted ?? (await findDocument(session, document.input_fingerprint));
  if (!stored) throw new Error('a stored document vanished before it could be read back');
  return stored;
}

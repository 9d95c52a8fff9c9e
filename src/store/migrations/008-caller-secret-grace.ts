import type { Kysely } from 'kysely';

/**
 * A caller's previous secret, kept when its secret is replaced: its scrypt hash, its sealed copy
 * for WS-Security digests, and until when it is still let in (the rotation's grace period). After
 * that it is still recognised for a while, so that a client still sending it is told apart from a
 * guesser and does not throttle the new secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('callers').addColumn('previous_secret_hash', 'text').execute();
  await db.schema.alterTable('callers').addColumn('previous_digest_secret', 'text').execute();
  await db.schema.alterTable('callers').addColumn('previous_secret_until', 'text').execute();
}

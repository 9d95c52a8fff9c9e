import type { Session } from '../session';

/**
 * Remembers a WS-Security nonce; false when it was already seen, that is, the message is a
 * replay. The primary key decides, so two processes given the same message cannot both accept it.
 * `seenAt` is when it was seen, or its token's Created when that is later: the nonce is pruned a
 * window after it.
 */
export async function rememberNonce({ db }: Session, nonceHash: string, seenAt: string): Promise<boolean> {
  const result = await db
    .insertInto('ws_security_nonces')
    .values({ nonce_hash: nonceHash, seen_at: seenAt })
    .onConflict((conflict) => conflict.column('nonce_hash').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Forgets the nonces seen before `before`: a message that old is refused for its Created anyway. */
export async function pruneNonces({ db }: Session, before: string): Promise<void> {
  await db.deleteFrom('ws_security_nonces').where('seen_at', '<', before).execute();
}

import { sql } from 'kysely';
import type { Store } from '../store/open-store';
import type { OutboxChannel, OutboxMessageTable } from '../store/schema';

export type ClaimedMessage = Pick<
  OutboxMessageTable,
  'channel' | 'recipient' | 'device_id' | 'payload' | 'attempts'
> & { id: number };

/**
 * Claims up to `limit` due messages for one worker until `now + leaseMs`, in one statement, so
 * that two workers never hold the same message: on PostgreSQL the candidate rows are locked with
 * FOR UPDATE SKIP LOCKED, so concurrent claimers pass over each other's rows; on SQLite the
 * single writer makes the UPDATE atomic. A message whose lease ran out (its worker died) is due
 * again.
 */
export async function claimDueMessages(
  store: Store,
  owner: string,
  channels: readonly OutboxChannel[],
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ClaimedMessage[]> {
  if (channels.length === 0) return [];
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
  const lock = store.engine === 'postgres' ? sql`for update skip locked` : sql``;
  const result = await sql<ClaimedMessage>`
    update outbox_messages set lease_owner = ${owner}, lease_until = ${leaseUntil}
    where id in (
      select id from outbox_messages
      where state in ('queued', 'retrying') and channel in (${sql.join([...channels])}) and next_attempt_at <= ${at} and (lease_until is null or lease_until < ${at})
      order by next_attempt_at, id
      limit ${limit}
      ${lock}
    )
    returning id, channel, recipient, device_id, payload, attempts`.execute(store.db);
  return result.rows;
}

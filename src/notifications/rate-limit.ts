import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Engine } from '../store/engine';
import type { Database } from '../store/schema';

export interface RateLimit {
  /** What is counted, e.g. "auth-code:phone:+9665…"; stored only as a hash. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Counts one request against each limit and says whether any limit was already reached. Every
 * request is counted, allowed or not, within the caller's transaction. On PostgreSQL a
 * transaction-scoped advisory lock per bucket serialises concurrent requests for the same
 * bucket, so a limit is never overshot; SQLite has a single writer. Events older than the
 * longest window are pruned as the bucket is used.
 */
export async function countAgainstLimits(
  transaction: Transaction<Database>,
  engine: Engine,
  limits: readonly RateLimit[],
  now: Date,
): Promise<RateLimit | undefined> {
  let exceeded: RateLimit | undefined;
  const buckets = new Map<string, RateLimit[]>();
  for (const limit of limits) buckets.set(bucketOf(limit.key), [...(buckets.get(bucketOf(limit.key)) ?? []), limit]);
  for (const [bucket, bucketLimits] of [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(transaction);
    const longest = Math.max(...bucketLimits.map((limit) => limit.windowMs));
    await transaction
      .deleteFrom('rate_limit_events')
      .where('bucket', '=', bucket)
      .where('occurred_at', '<', new Date(now.getTime() - longest).toISOString())
      .execute();
    for (const limit of bucketLimits) {
      const since = new Date(now.getTime() - limit.windowMs).toISOString();
      const row = await transaction
        .selectFrom('rate_limit_events')
        .select(transaction.fn.countAll<number>().as('count'))
        .where('bucket', '=', bucket)
        .where('occurred_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(row.count) >= limit.limit) exceeded ??= limit;
    }
    await transaction.insertInto('rate_limit_events').values({ bucket, occurred_at: now.toISOString() }).execute();
  }
  return exceeded;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** The longest window any limit counts over; older events count for nothing. */
const LONGEST_WINDOW_MS = HOUR_MS;

/**
 * Deletes the events no limit can count any more. Buckets are pruned as they are used; this
 * catches the ones never used again (one-off numbers and callers), so the table stays small.
 */
export async function pruneRateLimitEvents(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_events')
    .where('occurred_at', '<', new Date(now.getTime() - LONGEST_WINDOW_MS).toISOString())
    .execute();
}

function bucketOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

import { createHash } from 'node:crypto';
import {
  countRateLimitEvents,
  lockRateLimitBucket,
  pruneRateLimitEvents,
  recordRateLimitEvent,
} from '../store/queries/rate-limit-events';
import type { Session } from '../store/session';

export interface RateLimit {
  /** What is counted, e.g. "auth-code:phone:+9665…"; stored only as a hash. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** The longest window any limit counts over; older events count for nothing. */
const LONGEST_WINDOW_MS = HOUR_MS;

/**
 * Counts one request against each limit and says whether any limit was already reached. Every
 * request is counted, allowed or not, within the caller's transaction, and each bucket is locked
 * while it is counted, so that a limit is never overshot by concurrent requests. Events older
 * than the longest window are pruned as the bucket is used.
 */
export async function countAgainstLimits(
  transaction: Session,
  limits: readonly RateLimit[],
  now: Date,
): Promise<RateLimit | undefined> {
  let exceeded: RateLimit | undefined;
  const buckets = new Map<string, RateLimit[]>();
  for (const limit of limits) buckets.set(bucketOf(limit.key), [...(buckets.get(bucketOf(limit.key)) ?? []), limit]);
  // Buckets are locked in one order, so that two requests counting the same two cannot deadlock.
  for (const [bucket, bucketLimits] of [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    await lockRateLimitBucket(transaction, bucket);
    const longest = Math.max(...bucketLimits.map((limit) => limit.windowMs));
    await pruneRateLimitEvents(transaction, new Date(now.getTime() - longest).toISOString(), bucket);
    for (const limit of bucketLimits) {
      const since = new Date(now.getTime() - limit.windowMs).toISOString();
      if ((await countRateLimitEvents(transaction, bucket, since)) >= limit.limit) exceeded ??= limit;
    }
    await recordRateLimitEvent(transaction, bucket, now.toISOString());
  }
  return exceeded;
}

/**
 * Deletes the events no limit can count any more. Buckets are pruned as they are used; this
 * catches the ones never used again (one-off numbers and callers), so the table stays small.
 */
export async function pruneExpiredRateLimitEvents(session: Session, now: Date): Promise<void> {
  await pruneRateLimitEvents(session, new Date(now.getTime() - LONGEST_WINDOW_MS).toISOString());
}

function bucketOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

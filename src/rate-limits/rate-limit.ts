import { createHash } from 'node:crypto';
import {
  countBucketEvents,
  countRateLimitEvents,
  lockRateLimitBuckets,
  pruneRateLimitBuckets,
  pruneRateLimitEvents,
  recordRateLimitEvents,
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
 * Counts one request against each limit and says whether any limit was already reached. An
 * allowed request is recorded in every bucket, within the caller's transaction; a refused one is
 * recorded nowhere, so that a refused flood writes nothing to the store. Each bucket is locked
 * while it is counted, so that concurrent requests never overshoot a limit. Events older than the
 * longest window of a bucket are pruned as it is used. Each step is one statement for all the
 * buckets (a round trip each on PostgreSQL).
 */
export async function countAgainstLimits(
  transaction: Session,
  limits: readonly RateLimit[],
  now: Date,
): Promise<RateLimit | undefined> {
  if (limits.length === 1) return countAgainstOneLimit(transaction, limits[0], now);
  const buckets = new Map<string, RateLimit[]>();
  for (const limit of limits) buckets.set(bucketOf(limit.key), [...(buckets.get(bucketOf(limit.key)) ?? []), limit]);
  // Buckets are locked in one order, so that two requests counting the same two cannot deadlock.
  const ordered = [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b));
  await lockRateLimitBuckets(
    transaction,
    ordered.map(([bucket]) => bucket),
  );
  const checks = ordered.flatMap(([bucket, bucketLimits]) =>
    bucketLimits.map((limit) => ({ bucket, limit, since: new Date(now.getTime() - limit.windowMs).toISOString() })),
  );
  const counts = await countRateLimitEvents(transaction, checks);
  const reached = checks.find((check, index) => counts[index] >= check.limit.limit);
  if (reached) return reached.limit;
  await pruneRateLimitBuckets(
    transaction,
    ordered.map(([bucket, bucketLimits]) => ({
      bucket,
      before: new Date(now.getTime() - Math.max(...bucketLimits.map((limit) => limit.windowMs))).toISOString(),
    })),
  );
  await recordRateLimitEvents(
    transaction,
    ordered.map(([bucket]) => bucket),
    now.toISOString(),
  );
  await pruneExpiredEventsWhenDue(transaction, now);
  return undefined;
}

/**
 * The same for one limit, the case of most calls (a caller's admission, a device's pushes): its
 * count also says whether the bucket holds events past its window, and only then are they pruned,
 * a statement fewer for a bucket used within its window.
 */
async function countAgainstOneLimit(transaction: Session, limit: RateLimit, now: Date): Promise<RateLimit | undefined> {
  const bucket = bucketOf(limit.key);
  await lockRateLimitBuckets(transaction, [bucket]);
  const since = new Date(now.getTime() - limit.windowMs).toISOString();
  const counted = await countBucketEvents(transaction, bucket, since);
  if (counted.recent >= limit.limit) return limit;
  if (counted.older) await pruneRateLimitBuckets(transaction, [{ bucket, before: since }]);
  await recordRateLimitEvents(transaction, [bucket], now.toISOString());
  await pruneExpiredEventsWhenDue(transaction, now);
  return undefined;
}

/** How often a process sweeps the events of buckets nobody uses any more. */
const SWEEP_EVERY_MS = MINUTE_MS;
let nextSweepAt = 0;

/**
 * Buckets are pruned as they are used; this sweeps the ones never used again (one-off numbers and
 * callers), once a minute per process, within an allowed request's transaction: the limits keep
 * their own table small wherever they are counted, whether or not a delivery worker runs here.
 */
async function pruneExpiredEventsWhenDue(transaction: Session, now: Date): Promise<void> {
  if (now.getTime() < nextSweepAt) return;
  nextSweepAt = now.getTime() + SWEEP_EVERY_MS;
  await pruneRateLimitEvents(transaction, new Date(now.getTime() - LONGEST_WINDOW_MS).toISOString());
}

/**
 * Who a caller is for its limits: a named caller by its name, wherever it calls from; a local or
 * unnamed one by its address.
 */
export function callerKeyOf(call: { readonly callerName: string; readonly address: string }): string {
  return call.callerName === 'local' || call.callerName === 'anonymous'
    ? `address:${call.address}`
    : `caller:${call.callerName}`;
}

/** The limit of pushes to one device, as PushNotificationToGateway names it, from every operation together. */
export function pushDeviceLimit(applicationId: string, deviceId: string, perMinute: number): RateLimit {
  return { key: `push:device:${applicationId}:${deviceId}`, limit: perMinute, windowMs: MINUTE_MS };
}

function bucketOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

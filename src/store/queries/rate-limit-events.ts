import { sql } from 'kysely';
import type { Session } from '../session';

/**
 * The events rate limits count, by bucket (a hash of what is counted). Times are ISO 8601 text,
 * which both engines compare in time order.
 */

/**
 * Serialises concurrent counts of one bucket until the transaction ends, so that a limit is never
 * overshot: a transaction-scoped advisory lock on PostgreSQL; SQLite has a single writer already.
 */
export async function lockRateLimitBucket({ db, engine }: Session, bucket: string): Promise<void> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${bucket}))`.execute(db);
}

export async function countRateLimitEvents({ db }: Session, bucket: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_events')
    .select(db.fn.countAll<number>().as('count'))
    .where('bucket', '=', bucket)
    .where('occurred_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function recordRateLimitEvent({ db }: Session, bucket: string, at: string): Promise<void> {
  await db.insertInto('rate_limit_events').values({ bucket, occurred_at: at }).execute();
}

/** Deletes events older than `before`: of one bucket, or of every bucket when none is named. */
export async function pruneRateLimitEvents({ db }: Session, before: string, bucket?: string): Promise<void> {
  let statement = db.deleteFrom('rate_limit_events').where('occurred_at', '<', before);
  if (bucket !== undefined) statement = statement.where('bucket', '=', bucket);
  await statement.execute();
}

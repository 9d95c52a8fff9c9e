import { type Kysely, sql } from 'kysely';
import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';

/**
 * The events rate limits count, by bucket (a hash of what is counted). Times are ISO 8601 text,
 * which both engines compare in time order. A call counts against a few buckets at once; each step
 * takes all of them in one statement, as every statement is a round trip on PostgreSQL.
 */

/*
 * Most calls count against one bucket (a caller's admission, a device's pushes): that case runs
 * statements built and compiled once (see compiled-query.ts), as building them afresh cost more
 * than running them, and prunes only a bucket that holds events past its window; several buckets
 * at once keep the one statement built for their number.
 */
const bucketEventsQuery = compiledQuery(
  (_db, p: { bucket: string; since: string }) =>
    sql<{ recent: number | string | null; held: number | string }>`select
    sum(case when occurred_at > ${p.since} then 1 else 0 end) as recent, count(*) as held
    from rate_limit_events where bucket = ${p.bucket}`,
);
const recordOneQuery = compiledQuery((db, p: { bucket: string; at: string }) =>
  db.insertInto('rate_limit_events').values({ bucket: p.bucket, occurred_at: p.at }),
);
const pruneOneQuery = compiledQuery((db, p: { bucket: string; before: string }) =>
  db.deleteFrom('rate_limit_events').where('bucket', '=', p.bucket).where('occurred_at', '<', p.before),
);

/**
 * Serialises concurrent counts of these buckets until the transaction ends, so that a limit is
 * never overshot, each engine its way (PostgreSQL takes advisory locks in the order given; SQLite
 * has a single writer already).
 */
export function lockRateLimitBuckets({ db, engine }: Session, buckets: readonly string[]): Promise<void> {
  return engine.lockBuckets(db as unknown as Kysely<unknown>, buckets);
}

/**
 * How many events one bucket holds after `since`, and whether it holds any older: a bucket counted
 * alone learns in the same statement whether it has events to prune.
 */
export async function countBucketEvents(
  session: Session,
  bucket: string,
  since: string,
): Promise<{ readonly recent: number; readonly older: boolean }> {
  const [row] = await bucketEventsQuery(session, { bucket, since });
  const recent = Number(row?.recent ?? 0);
  return { recent, older: Number(row?.held ?? 0) > recent };
}

/** How many events each bucket holds after its time, in the order asked. */
export async function countRateLimitEvents(
  session: Session,
  checks: ReadonlyArray<{ readonly bucket: string; readonly since: string }>,
): Promise<number[]> {
  if (checks.length === 0) return [];
  const { db } = session;
  const counts = checks.map(
    ({ bucket, since }, index) =>
      sql`select ${sql.lit(index)} as position, count(*) as count from rate_limit_events
        where bucket = ${bucket} and occurred_at > ${since}`,
  );
  const { rows } = await sql<{ position: number; count: number | string }>`${sql.join(
    counts,
    sql` union all `,
  )}`.execute(db);
  const byPosition = new Array<number>(checks.length).fill(0);
  for (const row of rows) byPosition[Number(row.position)] = Number(row.count);
  return byPosition;
}

/** Records one event at `at` in each bucket. */
export async function recordRateLimitEvents(session: Session, buckets: readonly string[], at: string): Promise<void> {
  if (buckets.length === 0) return;
  if (buckets.length === 1) {
    await recordOneQuery(session, { bucket: buckets[0], at });
    return;
  }
  await session.db
    .insertInto('rate_limit_events')
    .values(buckets.map((bucket) => ({ bucket, occurred_at: at })))
    .execute();
}

/** Deletes each named bucket's events older than its own time. */
export async function pruneRateLimitBuckets(
  session: Session,
  expired: ReadonlyArray<{ readonly bucket: string; readonly before: string }>,
): Promise<void> {
  if (expired.length === 0) return;
  if (expired.length === 1) {
    await pruneOneQuery(session, expired[0]);
    return;
  }
  await session.db
    .deleteFrom('rate_limit_events')
    .where((eb) =>
      eb.or(expired.map(({ bucket, before }) => eb.and([eb('bucket', '=', bucket), eb('occurred_at', '<', before)]))),
    )
    .execute();
}

/** Deletes every bucket's events older than `before`. */
export async function pruneRateLimitEvents({ db }: Session, before: string): Promise<void> {
  await db.deleteFrom('rate_limit_events').where('occurred_at', '<', before).execute();
}

import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../schema';
import type { Session } from '../session';
import { type Dated, termStarts } from './reference';

/**
 * "Current" as the product defines it: the academic year or term in force on a given day
 * according to the store, that is the latest started; between two, the one that ended last;
 * before the first, the first. `dated` is in order of start.
 */
export function currentOf(dated: readonly Dated[], today: string): number | undefined {
  let found = dated[0];
  for (const entry of dated) {
    if (entry.startsOn > today) break;
    found = entry;
  }
  return found?.id;
}

/**
 * The current academic year's id (by `currentOf`'s rule) as an expression of the query that needs
 * it, null when there is none. Found in the lookup's own statement, the year and the rows come from
 * one snapshot of the store: a year made current by another process is either seen with the rows
 * written with it or not at all, and a lookup costs one read (on SQLite one read transaction, on
 * PostgreSQL one round trip) instead of a version check before it. The table holds a row a year,
 * and each engine evaluates the uncorrelated subqueries once a statement.
 */
export function currentAcademicYear(db: Kysely<Database>, today: string): RawBuilder<number | null> {
  const latestStarted = db
    .selectFrom('academic_years')
    .select('id')
    .where('starts_on', '<=', today)
    .orderBy('starts_on', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
  const first = db.selectFrom('academic_years').select('id').orderBy('starts_on').orderBy('id').limit(1);
  return sql<number | null>`coalesce(${latestStarted}, ${first})`;
}

/** From the store's kept copy when the session has one (the service's), else from the tables. */
export async function currentTermId(session: Session, today: string): Promise<number | undefined> {
  if (session.reference) return session.reference.currentTermId(today);
  return currentOf(await termStarts(session), today);
}

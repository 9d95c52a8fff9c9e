import { sql } from 'kysely';
import type { ShadowDifferenceTable } from '../schema';
import { inTransaction, type Session } from '../session';

/** The figures of comparisons with the legacy service (see migration 011). */

/** Comparisons of one day, operation, binding and outcome, counted in memory since the last write. */
export interface ComparedCalls {
  readonly day: string;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: string;
  readonly count: number;
}

export interface FoundDifference {
  readonly path: string;
  readonly noisy: boolean;
  readonly localExample: string;
  readonly legacyExample: string;
}

/** A path's differences of one day, operation and binding since the last write, with the first example pair. */
export interface CountedDifference extends FoundDifference {
  readonly day: string;
  readonly operation: string;
  readonly binding: string;
  readonly count: number;
}

/**
 * Adds the counts to the days' rows in one transaction; a path's example pair is the one its row
 * was created with.
 */
export function addComparisons(
  session: Session,
  calls: readonly ComparedCalls[],
  differences: readonly CountedDifference[],
): Promise<void> {
  return inTransaction(session, async ({ db }) => {
    for (const call of calls) {
      await db
        .insertInto('shadow_comparisons')
        .values(call)
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'operation', 'binding', 'outcome'])
            .doUpdateSet({ count: sql`shadow_comparisons.count + ${call.count}` }),
        )
        .execute();
    }
    for (const difference of differences) {
      await db
        .insertInto('shadow_differences')
        .values({
          day: difference.day,
          operation: difference.operation,
          binding: difference.binding,
          path: difference.path,
          noisy: difference.noisy ? 1 : 0,
          count: difference.count,
          local_example: difference.localExample,
          legacy_example: difference.legacyExample,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'operation', 'binding', 'path', 'noisy'])
            .doUpdateSet({ count: sql`shadow_differences.count + ${difference.count}` }),
        )
        .execute();
    }
  });
}

export interface ReportFilter {
  /** The first day counted, YYYY-MM-DD. */
  readonly since?: string;
  readonly operation?: string;
}

/** The counts since a day (all kept days without one), by operation, binding and outcome. */
export function comparisonCounts({ db }: Session, filter: ReportFilter) {
  let query = db
    .selectFrom('shadow_comparisons')
    .select(['operation', 'binding', 'outcome', (eb) => eb.fn.sum<number | string>('count').as('count')])
    .groupBy(['operation', 'binding', 'outcome'])
    .orderBy('operation')
    .orderBy('binding');
  if (filter.since) query = query.where('day', '>=', filter.since);
  if (filter.operation) query = query.where('operation', '=', filter.operation);
  return query.execute();
}

/** The differing paths' rows since a day, a row per day: the caller adds them up and keeps one example. */
export function differenceRows({ db }: Session, filter: ReportFilter): Promise<ShadowDifferenceTable[]> {
  let query = db.selectFrom('shadow_differences').selectAll().orderBy('day').orderBy('operation').orderBy('path');
  if (filter.since) query = query.where('day', '>=', filter.since);
  if (filter.operation) query = query.where('operation', '=', filter.operation);
  return query.execute();
}

/** Deletes the days before `day`, so that the figures stay bounded. */
export async function pruneComparisonsBefore(session: Session, day: string): Promise<void> {
  await inTransaction(session, async ({ db }) => {
    await db.deleteFrom('shadow_comparisons').where('day', '<', day).execute();
    await db.deleteFrom('shadow_differences').where('day', '<', day).execute();
  });
}

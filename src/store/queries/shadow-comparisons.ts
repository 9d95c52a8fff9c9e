import { sql } from 'kysely';
import type { ShadowDifferenceTable } from '../schema';
import { inTransaction, type Session } from '../session';

/** The figures of comparisons with the legacy service (see migration 008). */

export interface ComparedCall {
  readonly day: string;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: string;
}

export interface FoundDifference {
  readonly path: string;
  readonly noisy: boolean;
  readonly localExample: string;
  readonly legacyExample: string;
}

/** Counts one comparison and each path it differed at; a path's first example pair is the one kept. */
export function recordComparison(session: Session, call: ComparedCall, differences: readonly FoundDifference[]) {
  return inTransaction(session, async ({ db }) => {
    await db
      .insertInto('shadow_comparisons')
      .values({ ...call, count: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(['day', 'operation', 'binding', 'outcome'])
          .doUpdateSet({ count: sql`shadow_comparisons.count + 1` }),
      )
      .execute();
    for (const difference of differences) {
      await db
        .insertInto('shadow_differences')
        .values({
          day: call.day,
          operation: call.operation,
          binding: call.binding,
          path: difference.path,
          noisy: difference.noisy ? 1 : 0,
          count: 1,
          local_example: difference.localExample,
          legacy_example: difference.legacyExample,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'operation', 'binding', 'path', 'noisy'])
            .doUpdateSet({ count: sql`shadow_differences.count + 1` }),
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

import type { Kysely } from 'kysely';
import { OUTBOX_STATES, type Database, type OutboxState } from '../store/schema';

export type DeliveryCounts = Record<OutboxState, number>;

/** How many outbox messages are in each state: what operators watch. */
export async function deliveryCounts(db: Kysely<Database>): Promise<DeliveryCounts> {
  const rows = await db
    .selectFrom('outbox_messages')
    .select(['state', db.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute();
  const counts = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as DeliveryCounts;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

export function formatCounts(counts: DeliveryCounts): string {
  return OUTBOX_STATES.map((state) => `${state} ${counts[state]}`).join(', ');
}

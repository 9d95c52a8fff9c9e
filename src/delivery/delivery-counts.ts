import type { OutboxCounts } from '../store/queries/outbox';
import { OUTBOX_STATES } from '../store/schema';

/** The outbox's counts by state as one line, for logs and the delivery-status command. */
export function formatCounts(counts: OutboxCounts): string {
  return OUTBOX_STATES.map((state) => `${state} ${counts[state].toLocaleString('en')}`).join(', ');
}

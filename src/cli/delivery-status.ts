import { formatCounts } from '../delivery/delivery-counts';
import { outboxCounts } from '../store/queries/outbox';
import { withConfiguredStore } from './configured-store';

/** Prints how many outbox messages are queued, retrying, sent and failed: one line, or JSON. */
export function deliveryStatus(options: { readonly json: boolean }): Promise<void> {
  return withConfiguredStore(
    async (store) => {
      const counts = await outboxCounts(store);
      process.stdout.write(
        options.json ? `${JSON.stringify(counts)}\n` : `${store.location}: ${formatCounts(counts)}\n`,
      );
    },
    { mustExist: true },
  );
}

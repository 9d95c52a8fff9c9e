import { loadConfig } from '../config/service-config';
import { formatCounts } from '../delivery/delivery-counts';
import { openStore } from '../store/open-store';
import { outboxCounts } from '../store/queries/outbox';

/** Prints how many outbox messages are queued, retrying, sent and failed: one line, or JSON. */
export async function deliveryStatus(options: { readonly json: boolean }): Promise<void> {
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  try {
    const counts = await outboxCounts(store);
    process.stdout.write(options.json ? `${JSON.stringify(counts)}\n` : `${store.location}: ${formatCounts(counts)}\n`);
  } finally {
    await store.close();
  }
}

/**
 * Prints how many outbox messages are queued, retrying, sent and failed in the configured store
 * (DATA_DIR or DATABASE_URL), one line, or as JSON with --json.
 *
 *   npm run delivery-status [-- --json]
 */
import { ConfigError, loadConfig } from '../src/config';
import { deliveryCounts, formatCounts } from '../src/delivery/delivery-counts';
import { openStore } from '../src/store/open-store';

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  try {
    const counts = await deliveryCounts(store.db);
    process.stdout.write(
      process.argv.includes('--json') ? `${JSON.stringify(counts)}\n` : `${store.location}: ${formatCounts(counts)}\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`delivery-status: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});

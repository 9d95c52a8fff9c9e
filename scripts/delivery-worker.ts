/**
 * Runs only the delivery worker against the configured store, for deployments that deliver from
 * a process of its own (start the service with DELIVERY_WORKER=off). Several may run at once
 * against one PostgreSQL store: they never send the same message at the same time. Stops
 * cleanly on SIGTERM or SIGINT, after the sends in flight are recorded.
 *
 *   npm run delivery-worker
 */
import { ConfigError, loadConfig } from '../src/config';
import { loadOutboxKey, payloadSealer } from '../src/delivery/payload-sealer';
import { startDeliveryWorker } from '../src/delivery/worker';
import { log, setLogLevel } from '../src/log';
import { openStore } from '../src/store/open-store';

async function main(): Promise<void> {
  const config = loadConfig();
  setLogLevel(config.logLevel);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  const worker = startDeliveryWorker(
    store,
    config.delivery,
    payloadSealer(loadOutboxKey(config.delivery.outboxKey, config.dataDirectory)),
  );
  log.info('delivery worker running', { store: store.location });
  const stop = (signal: string) => {
    log.info('delivery worker stopping', { signal });
    void worker
      .stop()
      .then(() => store.close())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`delivery-worker: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
});

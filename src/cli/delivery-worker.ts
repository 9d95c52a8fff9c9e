import { loadConfig } from '../config/service-config';
import { payloadSealer } from '../lib/payload-sealer';
import { describeStoreKey, openStoreKey } from '../store/store-key';
import { storeLocation } from '../store/store-presence';
import { keySettingsOf, storeBanner } from './configured-store';
import { startDeliveryWorker } from '../delivery/worker';
import { log, configureLog } from '../lib/log';
import { openStore } from '../store/open-store';

/**
 * Runs only the delivery worker against the configured store, for deployments that deliver from
 * a process of its own (start the service with DELIVERY_WORKER=off). Several may run at once
 * against one PostgreSQL store: they never send the same message at the same time. Stops
 * cleanly on SIGTERM or SIGINT, after the sends in flight are recorded (or, past
 * SHUTDOWN_TIMEOUT_MS, abandoned and their messages given back).
 */
export async function deliveryWorker(): Promise<void> {
  const config = loadConfig();
  configureLog(config);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  const { key } = await openStoreKey(store, {
    outboxKey: config.delivery.outboxKey,
    dataDirectory: config.dataDirectory,
  });
  const sealer = payloadSealer(key);
  process.stderr.write(storeBanner(storeLocation(config), await describeStoreKey(store, keySettingsOf(config))));
  const worker = startDeliveryWorker(store, config.delivery, sealer);
  log.info('delivery worker running', { store: store.location });
  const stop = (signal: string) => {
    log.info('delivery worker stopping', { signal });
    void worker
      .stop(Date.now() + config.operator.shutdownTimeoutMs)
      .then(() => store.close())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

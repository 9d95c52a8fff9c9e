import { type Config, loadConfig } from '../config/service-config';
import { configureLog } from '../lib/log';
import { keyFor, loadOutboxKey, payloadSealer, type PayloadSealer } from '../lib/payload-sealer';
import { openStore, type Store } from '../store/open-store';

/** Runs `work` on the store the settings in the environment name (DATA_DIR or DATABASE_URL), then closes it. */
export async function withConfiguredStore<T>(work: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  configureLog(config);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  try {
    return await work(store, config);
  } finally {
    await store.close();
  }
}

/**
 * The sealer of callers' WS-Security digest secrets, from the service key (OUTBOX_KEY or the data folder's key
 * file).
 */
export function digestSealerOf(config: Config): PayloadSealer {
  return payloadSealer(keyFor(loadOutboxKey(config.delivery.outboxKey, config.dataDirectory), 'caller-digest-secrets'));
}

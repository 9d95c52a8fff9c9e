import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Config } from './config';
import { loadCatalog } from './contract/catalog';
import { log, setLogLevel } from './log';
import { bindHandlers } from './operations/registry';
import { createHttpServer } from './server';
import type { ServiceContext } from './service-context';
import { academicYearStartOf } from './store/demo/calendar';
import { loadDemoSchool, storeIsEmpty } from './store/demo/load-demo-school';
import { openStore, type Store } from './store/open-store';
import { loadOutboxKey, payloadSealer } from './delivery/payload-sealer';
import { startDeliveryWorker, type DeliveryWorker } from './delivery/worker';

/** The folder of the hand-authored WSDL files, beside src/ (and beside dist/ when compiled). */
export const WSDL_DIRECTORY = join(__dirname, __dirname.includes(`${join('dist', 'src')}`) ? '../../wsdl' : '../wsdl');

/** The size of the demo school a new embedded store gets on first start. */
export const FIRST_START_DEMO_STUDENTS = 500;
export const FIRST_START_DEMO_SEED = 1;

export interface RunningService {
  readonly url: string;
  readonly context: ServiceContext;
  close(): Promise<void>;
}

export interface StartOptions {
  /** The clock "current" year and term follow; the system clock unless a test pins it. */
  readonly now?: () => Date;
}

/** A new embedded store gets a small demo school, so that a first start shows real answers. */
async function fillNewEmbeddedStore(store: Store, config: Config, now: Date): Promise<void> {
  if (store.engine !== 'sqlite' || !config.demoData || !(await storeIsEmpty(store))) return;
  const summary = await loadDemoSchool(store, {
    students: FIRST_START_DEMO_STUDENTS,
    seed: FIRST_START_DEMO_SEED,
    startYear: academicYearStartOf(now),
  });
  log.info('new store filled with a demo school (DEMO_DATA=off prevents this)', { ...summary });
}

/** Opens the store, loads the catalog, binds the handlers and listens; resolves once the port is open. */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  setLogLevel(config.logLevel);
  const now = options.now ?? (() => new Date());
  const catalog = await loadCatalog(WSDL_DIRECTORY);
  const handlerFor = bindHandlers(catalog);
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  await fillNewEmbeddedStore(store, config, now());
  const sealer = payloadSealer(loadOutboxKey(config.delivery.outboxKey, config.dataDirectory));
  const worker: DeliveryWorker | undefined =
    config.delivery.worker === 'in-process' ? startDeliveryWorker(store, config.delivery, sealer, { now }) : undefined;
  const context: ServiceContext = {
    config,
    catalog,
    handlerFor,
    store,
    now,
    outboxChanged: worker ? () => worker.wake() : () => undefined,
    sealer,
  };
  const stopWorkerAndStore = async () => {
    await worker?.stop();
    await store.close();
  };
  const server = createHttpServer(context);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  }).catch(async (error: unknown) => {
    await stopWorkerAndStore();
    throw error;
  });
  log.info('store open', { engine: store.engine, location: store.location });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const urlHost = host === '0.0.0.0' || host === '[::]' ? 'localhost' : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    context,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          stopWorkerAndStore().then(resolve, resolve);
        });
        server.closeIdleConnections();
        // Requests in flight get a grace period, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Config } from './config';
import { loadCatalog } from './contract/catalog';
import { setLogLevel } from './log';
import { bindHandlers } from './operations/registry';
import { createHttpServer } from './server';
import type { ServiceContext } from './service-context';

/** The folder of the hand-authored WSDL files, beside src/ (and beside dist/ when compiled). */
export const WSDL_DIRECTORY = join(__dirname, __dirname.includes(`${join('dist', 'src')}`) ? '../../wsdl' : '../wsdl');

export interface RunningService {
  readonly url: string;
  readonly context: ServiceContext;
  close(): Promise<void>;
}

/** Loads the catalog, binds the handlers and listens; resolves once the port is open. */
export async function startService(config: Config): Promise<RunningService> {
  setLogLevel(config.logLevel);
  const catalog = await loadCatalog(WSDL_DIRECTORY);
  const context: ServiceContext = { config, catalog, handlerFor: bindHandlers(catalog) };
  const server = createHttpServer(context);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const urlHost = host === '0.0.0.0' || host === '[::]' ? 'localhost' : host;
  return {
    url: `http://${urlHost}:${address.port}`,
    context,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get a grace period, then their connections are cut.
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}

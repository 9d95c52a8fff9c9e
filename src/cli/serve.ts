import cluster from 'node:cluster';
import { type Config, ConfigError, loadConfig } from '../config/service-config';
import { log, setLogLevel } from '../lib/log';
import { reportListening, superviseWorkers } from '../workers';

/**
 * Starts the service with the settings in the environment: one process, or with WORKERS=n a
 * supervisor and n workers. Stops cleanly on SIGTERM and SIGINT.
 */
export async function serve(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid setting: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  setLogLevel(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) {
    superviseWorkers(config.workers);
    return;
  }
  // Loaded here, not above, so that a supervising primary stays a small process.
  const { startService } = await import('../service');
  const service = await startService(config);
  log.info('listening', {
    url: service.url,
    endpoints: service.catalog.endpoints.length,
    operations: service.catalog.operations.length,
    pid: process.pid,
  });
  reportListening(service.url);
  let stopping = false;
  const stop = (signal: string) => {
    // Ctrl+C reaches a worker both from the terminal and from its supervisor: stop once.
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    service.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

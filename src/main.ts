import cluster from 'node:cluster';
import { type Config, ConfigError, loadConfig } from './config';
import { log, setLogLevel } from './log';
import { reportListening, superviseWorkers } from './workers';

async function main(): Promise<void> {
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
  const { startService } = await import('./service');
  const service = await startService(config);
  log.info('listening', {
    url: service.url,
    endpoints: service.context.catalog.endpoints.length,
    operations: service.context.catalog.operations.length,
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

main().catch((error: unknown) => {
  log.error('failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

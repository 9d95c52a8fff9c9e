import cluster from 'node:cluster';
import { type Config, ConfigError, loadConfig } from '../config/service-config';
import { flushLog, log, configureLog } from '../lib/log';
import { reportListening, superviseWorkers } from '../workers';

/** Past the drain's own deadline, a process that has still not stopped (a store that hangs) exits anyway. */
const STOP_MARGIN_MS = 5_000;

/**
 * Starts the service with the settings in the environment: one process, or with WORKERS=n a
 * supervisor and n workers. On SIGTERM and SIGINT it drains (see RunningService.drain) and exits 0.
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
  configureLog(config);
  if (config.workers > 1 && cluster.isPrimary) {
    superviseWorkers(config.workers, config.operator);
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
  // Written before the supervisor hears of it, so that its "workers listening" comes after every worker's line.
  flushLog();
  reportListening(service.url);
  let stopping = false;
  const stop = (signal: string) => {
    // Ctrl+C reaches a worker both from the terminal and from its supervisor: stop once.
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal, pid: process.pid });
    const { shutdownDelayMs, shutdownTimeoutMs } = config.operator;
    setTimeout(
      () => {
        log.error('still not stopped past SHUTDOWN_TIMEOUT_MS; exiting', { pid: process.pid });
        process.exit(1);
      },
      shutdownDelayMs + shutdownTimeoutMs + STOP_MARGIN_MS,
    ).unref();
    service.drain().then(() => {
      log.info('stopped', { signal, pid: process.pid });
      process.exit(0);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  // SIGHUP restarts the workers, in the supervisor; a worker, or a single process, keeps serving.
  process.on('SIGHUP', () => {
    if (!cluster.isWorker) log.warn('SIGHUP ignored: restarting one worker at a time needs WORKERS of 2 or more');
  });
}

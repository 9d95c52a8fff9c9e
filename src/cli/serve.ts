import cluster from 'node:cluster';
import { effectiveSettings } from '../config/effective-settings';
import { settingsFileFields } from '../config/env-file';
import { EXIT_SETTING_TO_FIX } from '../config/readers';
import { type Config, ConfigError, loadConfig } from '../config/service-config';
import { configureLog, flushLog, log } from '../lib/log';
import { isSettingToFix } from '../store/store-errors';
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
      process.exit(EXIT_SETTING_TO_FIX);
    }
    throw error;
  }
  configureLog(config);
  if (config.workers > 1 && cluster.isPrimary) {
    superviseWorkers(config.workers, config.operator, effectiveSettings(config));
    return;
  }
  // Loaded here, not above, so that a supervising primary stays a small process.
  const { startService } = await import('../service');
  const service = await startService(config).catch((error: unknown) => {
    // A setting the operator must fix (a wrong password, an unknown database, another key) fails
    // the same way on every try: exit 2, which the unit does not restart. A store that is down
    // is an error like any other (exit 1), and the unit tries again.
    if (!(error instanceof ConfigError) && !isSettingToFix(error)) throw error;
    log.error('failed to start: a setting must be fixed', {
      error: error instanceof Error ? error.message : String(error),
    });
    flushLog();
    process.exit(EXIT_SETTING_TO_FIX);
  });
  // The start-up line: where it answers and, in a process of its own, with which settings (the
  // supervisor of several workers writes them once, in its "workers listening").
  log.info('listening', {
    url: service.url,
    addresses: service.addresses,
    endpoints: service.catalog.endpoints.length,
    operations: service.catalog.operations.length,
    pid: process.pid,
    ...(cluster.isWorker ? {} : { settings: effectiveSettings(config), ...settingsFileFields() }),
  });
  // Written before the supervisor hears of it, so that its "workers listening" comes after every worker's line.
  flushLog();
  reportListening(service.url, service.addresses);
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

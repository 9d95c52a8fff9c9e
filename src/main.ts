import { ConfigError, loadConfig } from './config';
import { log } from './log';
import { startService } from './service';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid setting: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const service = await startService(config);
  log.info('listening', { url: service.url, endpoints: service.context.catalog.endpoints.length, operations: service.context.catalog.operations.length });
  const stop = (signal: string) => {
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

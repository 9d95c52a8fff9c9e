import { serve } from './cli/serve';
import { log } from './lib/log';

/** The service's entry point (`npm start`; `school-service serve` is the same). */
serve().catch((error: unknown) => {
  log.error('failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

import { serve } from './cli/serve';
import { applyEnvironmentFile } from './config/env-file';
import { ConfigError, EXIT_SETTING_TO_FIX } from './config/readers';
import { log } from './lib/log';
import { keepFilesPrivate } from './lib/private-files';

/**
 * The service's entry point (`npm start`; `school-service serve` is the same). SCHOOL_SERVICE_ENV
 * names a settings file, as for the commands; the unit passes its file through systemd instead.
 */
keepFilesPrivate();
Promise.resolve()
  .then(() => applyEnvironmentFile(process.env.SCHOOL_SERVICE_ENV))
  .then(serve)
  .catch((error: unknown) => {
    log.error('failed to start', { error: error instanceof Error ? error.message : String(error) });
    process.exit(error instanceof ConfigError ? EXIT_SETTING_TO_FIX : 1);
  });

import type { Environment } from '../config/readers';
import { type Config, environmentOf, loadConfig } from '../config/service-config';
import type { SchoolEntry } from './school-entry';
import { schoolStoreSettings } from './school-store-place';
import { schoolEnvironment } from './school-settings';

/**
 * The settings a registered school runs with: the deployment's, with the school's own store (see
 * school-store-place.ts), its folder as DATA_DIR (its key file when OUTBOX_KEY is unset, its audit
 * journal) and its path as the prefix of every address it names. Its SIS sync, legacy service and
 * notification settings are read from the school's own settings (`schools set`) over the
 * deployment's environment, which lends it no SIS and no legacy service (see school-settings.ts).
 * `deployment` is the environment the deployment's settings came from (process.env for a Config
 * made otherwise).
 */
export function schoolConfig(
  config: Config,
  school: SchoolEntry,
  deployment: Environment = environmentOf(config) ?? process.env,
): Config {
  const own = loadConfig(schoolEnvironment(deployment, school.settings));
  return {
    ...config,
    ...schoolStoreSettings(config, school.sourcedId),
    demoData: false,
    pathPrefix: school.path,
    hostName: school.host,
    school: school.sourcedId,
    sis: own.sis,
    notifications: own.notifications,
    // Recording calls for replay is the deployment's (RECORD_FILE names one file for it).
    migration: { ...own.migration, recordFile: undefined },
  };
}

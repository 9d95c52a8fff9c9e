import type { Config } from '../config/service-config';
import type { SchoolEntry } from './school-entry';
import { schoolStoreSettings } from './school-store-place';

/**
 * The settings a registered school runs with: the deployment's, with the school's own store (see
 * school-store-place.ts), its folder as DATA_DIR (its key file when OUTBOX_KEY is unset, its audit
 * journal) and its path as the prefix of every address it names. A school pulls nothing from the
 * deployment's SIS and forwards nothing to its legacy service: those name one school, and giving
 * each school its own comes next.
 */
export function schoolConfig(config: Config, school: SchoolEntry): Config {
  return {
    ...config,
    ...schoolStoreSettings(config, school.sourcedId),
    demoData: false,
    pathPrefix: school.path,
    hostName: school.host,
    sis: { ...config.sis, url: undefined, gradebookUrl: undefined },
    migration: { ...config.migration, legacyUrl: undefined, recordFile: undefined },
  };
}

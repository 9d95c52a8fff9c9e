import type { EngineSettings } from '../store/engine-driver';
import { schoolStoresOf } from '../store/engines';
import { schoolFolder } from './school-list';

/**
 * Where a registered school's store is: on SQLite its own file in its folder under DATA_DIR; on
 * PostgreSQL its own schema in the deployment's database (DATABASE_URL), its connections opened
 * with that schema as their search_path. Its folder holds its other files on either engine (the
 * key file when OUTBOX_KEY is unset, the audit journal).
 */
export function schoolStoreSettings(deployment: EngineSettings, sourcedId: string): EngineSettings {
  const folder = schoolFolder(deployment.dataDirectory, sourcedId);
  return schoolStoresOf(deployment).settingsOf(deployment, sourcedId, folder);
}

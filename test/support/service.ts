import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/service-config';
import { startService, type RunningService, type StartOptions } from '../../src/service';
import { TEST_OUTBOX_KEY } from './test-key';

/**
 * Starts the real service on a free loopback port with the given settings on top of the
 * defaults. Each service gets a data folder of its own, so an embedded store starts new; the
 * folder is removed when the service is closed (unless the test named its own DATA_DIR). Unless a
 * test names its own OUTBOX_KEY, every service holds the same key, as the nodes of one store must:
 * two services on one PostgreSQL store would otherwise each make a key file of their own.
 */
export async function startTestService(
  settings: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningService> {
  const ownDirectory = settings.DATA_DIR === undefined ? mkdtempSync(join(tmpdir(), 'school-service-')) : undefined;
  const removeOwnDirectory = () => {
    if (ownDirectory) rmSync(ownDirectory, { recursive: true, force: true });
  };
  let service: RunningService;
  try {
    service = await startService(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: ownDirectory ?? '',
        OUTBOX_KEY: TEST_OUTBOX_KEY,
        ...settings,
      }),
      options,
    );
  } catch (error) {
    removeOwnDirectory();
    throw error;
  }
  return {
    ...service,
    close: async () => {
      await service.close();
      removeOwnDirectory();
    },
  };
}

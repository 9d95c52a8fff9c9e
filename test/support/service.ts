import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { startService, type RunningService, type StartOptions } from '../../src/service';

/**
 * Starts the real service on a free loopback port with the given settings on top of the
 * defaults. Each service gets a data folder of its own, so an embedded store starts new.
 */
export async function startTestService(settings: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningService> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'school-service-'));
  return startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDirectory, ...settings }), options);
}

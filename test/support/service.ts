import { loadConfig } from '../../src/config';
import { startService, type RunningService } from '../../src/service';

/** Starts the real service on a free loopback port with the given settings on top of the defaults. */
export async function startTestService(settings: Record<string, string> = {}): Promise<RunningService> {
  return startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...settings }));
}

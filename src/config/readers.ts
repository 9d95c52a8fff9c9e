/**
 * Readers of one environment setting each, shared by every group of settings; a bad value is a ConfigError naming
 * it.
 */

export class ConfigError extends Error {}

/**
 * The exit code of a setting the operator must fix: trying again fails the same way, so the unit
 * does not restart on it (RestartPreventExitStatus=2). Other failures exit 1 and are retried.
 */
export const EXIT_SETTING_TO_FIX = 2;

export type Environment = Record<string, string | undefined>;

export function readInteger(env: Environment, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function readAbsoluteUrl(env: Environment, name: string): URL | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http or https URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an absolute http or https URL, got "${raw}"`);
  }
  if (url.search || url.hash) throw new ConfigError(`${name} must not carry a query or fragment, got "${raw}"`);
  return url;
}

export function readSwitch(env: Environment, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

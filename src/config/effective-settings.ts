import type { Config } from './service-config';

/** Settings whose values are secrets: shown as set or not, never as they are. */
const SECRET_NAME = /key|secret|token|authorization|password/i;
const MASK = '***';

/** A setting's value as it may be shown: a secret's as ***, a URL's password as ***, any other as it is. */
export function shownValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return MASK;
  // A URL's password (DATABASE_URL, a gateway's address) is a secret wherever it appears.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(value)) {
    const url = new URL(value);
    url.password = MASK;
    return url.toString();
  }
  return value;
}

function masked(name: string, value: unknown): unknown {
  if (typeof value === 'string') return shownValue(name, value);
  if (Array.isArray(value)) return value.map((item) => masked(name, item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, masked(key, inner)]));
  }
  return value;
}

/**
 * The settings a process runs with, every default filled in, for its start-up line: what an
 * operator checks first when a node behaves unlike the others. Secrets are masked (keys, tokens,
 * passwords, a URL's password); an unset one is left out.
 */
export function effectiveSettings(config: Config): Record<string, unknown> {
  return masked('', config) as Record<string, unknown>;
}

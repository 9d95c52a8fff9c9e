import { readFileSync } from 'node:fs';
import { isLoopbackHost } from '../lib/networks';
import { ConfigError, type Environment, readInteger, readSwitch } from './readers';

/**
 * Where the school's SIS publishes it over OneRoster REST, and how often the service pulls it.
 * Unset SIS_URL: no sync. The client secret is held behind `reveal()`, so that printing, logging
 * or serialising the settings never shows it.
 */
export type SisVersion = '1.1' | '1.2';

/**
 * How a 1.2 client proves itself to the token endpoint: HTTP Basic of `id:secret` as RFC 7617 has
 * it (what most token endpoints decode), HTTP Basic of the form-encoded id and secret as RFC 6749
 * §2.3.1 has it, or both in the form body (`client_secret_post`).
 */
export const TOKEN_AUTH_METHODS = ['basic', 'basic-encoded', 'post'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

export interface SisSecret {
  reveal(): string;
  toJSON(): string;
}

export interface SisSettings {
  /** The rostering base (…/ims/oneroster/v1p1 or …/ims/oneroster/rostering/v1p2), without a trailing slash. */
  readonly url: string | undefined;
  /** The gradebook base: the same for 1.1, the rostering base's gradebook sibling for 1.2. */
  readonly gradebookUrl: string | undefined;
  readonly version: SisVersion;
  readonly clientId: string;
  readonly clientSecret: SisSecret;
  /** 1.2: the OAuth 2.0 token endpoint. */
  readonly tokenUrl: string | undefined;
  /** 1.2: how the client id and secret are sent to the token endpoint. */
  readonly tokenAuth: TokenAuthMethod;
  /** The school's sourcedId when the provider serves several. */
  readonly school: string | undefined;
  /** 0: the service does not sync on its own. */
  readonly intervalMs: number;
  readonly notifyMarks: boolean;
  readonly pageSize: number;
  /** Records of one sync, all collections together: past it the sync fails rather than fill the disk. */
  readonly maxRecords: number;
  /** One answer's body: past it the answer is refused. */
  readonly maxResponseBytes: number;
  readonly timeoutMs: number;
  /** Tries of one request after the first, for 5xx, timeouts and 429/503. */
  readonly retries: number;
  readonly backoffBaseMs: number;
  /** The longest Retry-After the sync waits for; a longer one fails the sync at once. */
  readonly maxRetryAfterMs: number;
  /** How long a sync may read the provider; past it the sync fails and writes nothing. */
  readonly timeLimitMs: number;
}

export function secretOf(value: string): SisSecret {
  return { reveal: () => value, toJSON: () => '(secret)' };
}

/** 15m, 1h, 90s, or a number of seconds; empty or off: 0. */
export function readDuration(env: Environment, name: string): number {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'off') return 0;
  const match = /^(\d+)\s*(s|m|h)?$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be a duration such as 15m, 1h or 90s, got "${env[name]}"`);
  const ms = Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
  if (ms < 60_000 || ms > 7 * 86_400_000) throw new ConfigError(`${name} must be between 1m and 7 days`);
  return ms;
}

function readProviderUrl(env: Environment, name: string, allowHttp: boolean): URL | undefined {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute https URL, got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${name} must carry no query, fragment or credentials`);
  }
  if (url.protocol === 'https:') return url;
  // Plain http carries the token in clear: only to this machine (tests) or when the operator says so.
  if (url.protocol === 'http:' && (allowHttp || isLoopbackHost(url.hostname))) return url;
  throw new ConfigError(`${name} must be an https URL (http only on loopback or with SIS_ALLOW_HTTP=on), got "${raw}"`);
}

function readSecret(env: Environment): string {
  const file = (env.SIS_CLIENT_SECRET_FILE ?? '').trim();
  if (file !== '') {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      throw new ConfigError(`SIS_CLIENT_SECRET_FILE: cannot read ${file}`);
    }
  }
  return env.SIS_CLIENT_SECRET ?? '';
}

function versionOf(env: Environment, url: URL | undefined): SisVersion {
  const raw = (env.SIS_VERSION ?? '').trim();
  if (raw === '1.1' || raw === '1.2') return raw;
  if (raw !== '') throw new ConfigError(`SIS_VERSION must be 1.1 or 1.2, got "${raw}"`);
  return url?.pathname.includes('v1p2') ? '1.2' : '1.1';
}

export function readSisSettings(env: Environment): SisSettings {
  const allowHttp = readSwitch(env, 'SIS_ALLOW_HTTP', false);
  const url = readProviderUrl(env, 'SIS_URL', allowHttp);
  const tokenUrl = readProviderUrl(env, 'SIS_TOKEN_URL', allowHttp);
  const version = versionOf(env, url);
  const base = url?.href.replace(/\/+$/, '');
  const settings: SisSettings = {
    url: base,
    gradebookUrl: version === '1.2' ? base?.replace(/\/rostering\/v1p2$/, '/gradebook/v1p2') : base,
    version,
    clientId: (env.SIS_CLIENT_ID ?? '').trim(),
    clientSecret: secretOf(readSecret(env)),
    tokenUrl: tokenUrl?.href,
    tokenAuth: readTokenAuth(env),
    school: (env.SIS_SCHOOL ?? '').trim() || undefined,
    intervalMs: readDuration(env, 'SIS_SYNC_INTERVAL'),
    notifyMarks: readSwitch(env, 'SIS_SYNC_NOTIFY_MARKS', false),
    pageSize: readInteger(env, 'SIS_PAGE_SIZE', 1000, 1, 10_000),
    maxRecords: readInteger(env, 'SIS_MAX_RECORDS', 20_000_000, 1, 100_000_000),
    maxResponseBytes: readInteger(env, 'SIS_MAX_RESPONSE_BYTES', 64 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    timeoutMs: readInteger(env, 'SIS_TIMEOUT_MS', 30_000, 100, 600_000),
    retries: readInteger(env, 'SIS_RETRIES', 4, 0, 20),
    backoffBaseMs: readInteger(env, 'SIS_BACKOFF_MS', 1_000, 1, 600_000),
    maxRetryAfterMs: readInteger(env, 'SIS_MAX_RETRY_AFTER_S', 300, 0, 3_600) * 1000,
    timeLimitMs: readInteger(env, 'SIS_SYNC_TIME_LIMIT_SECONDS', 3_600, 1, 7 * 86_400) * 1000,
  };
  if (base === undefined) {
    if (settings.intervalMs > 0) throw new ConfigError('SIS_SYNC_INTERVAL needs SIS_URL');
    return settings;
  }
  if (settings.clientId === '') throw new ConfigError('SIS_URL needs SIS_CLIENT_ID');
  if (settings.clientSecret.reveal() === '') {
    throw new ConfigError('SIS_URL needs SIS_CLIENT_SECRET or SIS_CLIENT_SECRET_FILE');
  }
  if (version === '1.2' && !tokenUrl) throw new ConfigError('SIS_VERSION 1.2 needs SIS_TOKEN_URL');
  // RFC 7617: a user-id holding a colon cannot be told from the password.
  if (version === '1.2' && settings.tokenAuth === 'basic' && settings.clientId.includes(':')) {
    throw new ConfigError(
      'SIS_CLIENT_ID holds a colon, which SIS_TOKEN_AUTH=basic cannot send: use basic-encoded or post',
    );
  }
  if (version === '1.2' && settings.gradebookUrl === base) {
    throw new ConfigError('SIS_URL for OneRoster 1.2 ends in /ims/oneroster/rostering/v1p2');
  }
  return settings;
}

function readTokenAuth(env: Environment): TokenAuthMethod {
  const raw = (env.SIS_TOKEN_AUTH ?? '').trim().toLowerCase();
  if (raw === '') return 'basic';
  const method = TOKEN_AUTH_METHODS.find((candidate) => candidate === raw);
  if (!method)
    throw new ConfigError(`SIS_TOKEN_AUTH must be ${TOKEN_AUTH_METHODS.join(', ')}, got "${raw.slice(0, 40)}"`);
  return method;
}

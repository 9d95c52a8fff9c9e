import { type NetworkList, NetworkError, parseNetworks } from '../lib/networks';
import { ConfigError, type Environment, readInteger } from './readers';

/** Who may call: the local networks, the proxies whose X-Forwarded-For is believed, test forms, the audit trail. */
export interface AccessSettings {
  /** Callers from these networks may call everything, as on the machine itself. */
  readonly localNetworks: NetworkList;
  /** Connections from these are proxies: the client's address is taken from their X-Forwarded-For. */
  readonly trustedProxies: NetworkList;
  /** Who sees the HTTP POST test form on the operation pages: local callers, everyone, or no one. */
  readonly testForms: 'local' | 'all' | 'off';
  /** How often each process looks for changed callers; a change reaches it within this and a call. */
  readonly refreshMs: number;
  /** How long after its Created a WS-Security token is taken (its Nonce is remembered that long). */
  readonly replayWindowMs: number;
  /** How far ahead of now a WS-Security Created may be: the clocks of two machines differ a little. */
  readonly clockSkewMs: number;
  /** How long the audit trail is kept. */
  readonly auditRetentionDays: number;
  /** How often buffered audit entries are written to the store. */
  readonly auditFlushMs: number;
  /** Slow secret checks (scrypt) running at once in a process. */
  readonly secretChecksInFlight: number;
  /** Percent of one core a process's secret checks may use together, on average. */
  readonly secretCheckCpuPercent: number;
  /** How long revoked callers stay in `callers list` before they are removed. */
  readonly revokedKeepDays: number;
  /** How long a OneRoster provider's bearer token lasts. */
  readonly oauthTokenTtlSeconds: number;
  /** Requests to the OneRoster provider's REST paths a caller may make a minute; more are answered 429. */
  readonly oneRosterRequestsPerMinute: number;
  /** Days a record an import, a sync or an erasure deleted is answered to a delta consumer as tobedeleted. */
  readonly oneRosterTombstoneDays: number;
}

export const DEFAULT_LOCAL_NETWORKS = '127.0.0.0/8,::1';

/** A comma-separated list of networks; a bad entry is a ConfigError naming the setting. */
export function readNetworks(env: Environment, name: string, fallback: string): NetworkList {
  try {
    return parseNetworks(env[name] ?? fallback);
  } catch (error) {
    if (error instanceof NetworkError) throw new ConfigError(`${name}: ${error.message}`);
    throw error;
  }
}

function readTestForms(env: Environment): AccessSettings['testForms'] {
  const raw = (env.TEST_FORMS ?? '').trim().toLowerCase();
  if (raw === '') return 'local';
  if (raw === 'local' || raw === 'all' || raw === 'off') return raw;
  throw new ConfigError(`TEST_FORMS must be local, all or off, got "${env.TEST_FORMS}"`);
}

export function readAccessSettings(env: Environment): AccessSettings {
  return {
    localNetworks: readNetworks(env, 'LOCAL_NETWORKS', DEFAULT_LOCAL_NETWORKS),
    trustedProxies: readNetworks(env, 'TRUSTED_PROXIES', ''),
    testForms: readTestForms(env),
    refreshMs: readInteger(env, 'ACCESS_REFRESH_MS', 2_000, 100, 5_000),
    replayWindowMs: readInteger(env, 'WS_SECURITY_WINDOW_SECONDS', 300, 10, 3_600) * 1000,
    clockSkewMs: readInteger(env, 'WS_SECURITY_CLOCK_SKEW_SECONDS', 60, 0, 300) * 1000,
    auditRetentionDays: readInteger(env, 'AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    auditFlushMs: readInteger(env, 'AUDIT_FLUSH_MS', 1_000, 50, 1_000),
    secretChecksInFlight: readInteger(env, 'SECRET_CHECKS_IN_FLIGHT', 1, 1, 16),
    secretCheckCpuPercent: readInteger(env, 'SECRET_CHECK_CPU_PERCENT', 25, 1, 400),
    revokedKeepDays: readInteger(env, 'ACCESS_REVOKED_KEEP_DAYS', 30, 0, 3_650),
    oauthTokenTtlSeconds: readInteger(env, 'OAUTH_TOKEN_TTL_SECONDS', 3_600, 60, 86_400),
    oneRosterRequestsPerMinute: readInteger(env, 'ONEROSTER_REQUESTS_PER_MINUTE', 1_200, 1, 100_000),
    oneRosterTombstoneDays: readInteger(env, 'ONEROSTER_TOMBSTONE_DAYS', 90, 1, 3_650),
  };
}

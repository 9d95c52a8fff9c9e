import { PROFILES, type Profile } from '../contract/profile';
import { readDeliveryConfig, type DeliveryConfig } from './delivery-settings';
import { type DistrictSettings, readDistrictSettings } from './district-settings';
import { type AccessSettings, readAccessSettings } from './access-settings';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../lib/log';
import { readNotificationConfig, type NotificationConfig } from './notification-settings';
import { readRetentionAfterLeavingDays } from './retention-settings';
import { type ImportSettings, readImportSettings } from './import-settings';
import { type MigrationSettings, readMigrationSettings } from './migration-settings';
import { type OperatorSettings, readOperatorSettings } from './operator-settings';
import { readRequestBudgets, type RequestBudgets } from './request-budgets';
import { ConfigError, readAbsoluteUrl, readInteger, readSwitch, type Environment } from './readers';
import { readSisSettings, type SisSettings } from './sis-settings';

export { ConfigError } from './readers';

/**
 * Every setting of the service, read from the environment once at start and validated, so that a
 * bad value stops the service with a message naming the setting instead of failing later.
 */
export interface Config {
  port: number;
  host: string;
  serviceNamespace: string;
  /** Base URL written into WSDL and DISCO addresses; undefined means "the host the caller used". */
  publicBaseUrl: string | undefined;
  /** Set for a school of a district deployment only: the path ("/slug") its endpoints answer under. */
  pathPrefix?: string;
  /** Set for a school of a district deployment registered with `--host`: the host name it is reached at. */
  hostName?: string;
  /** Set for a school of a district deployment only: its sourcedId, which its figures and log lines name. */
  school?: string;
  maxBodyBytes: number;
  /** What one request's document (XML, form, query, JSON) may hold. */
  budgets: RequestBudgets;
  logLevel: LogLevel;
  /** JSON lines for a log shipper, or aligned text for a terminal. */
  logFormat: LogFormat;
  /** Folder of the embedded SQLite store (and later of generated documents). */
  dataDirectory: string;
  /** postgres://... selects PostgreSQL; undefined selects the embedded SQLite store. */
  databaseUrl: string | undefined;
  /** Whether a new embedded store is filled with a demo school on first start. */
  demoData: boolean;
  /** The wire profile of SOAP and HTTP GET/POST: the documented contract, or typed results. */
  contract: Profile;
  /** The outbox worker and the SMS and push gateways. */
  delivery: DeliveryConfig;
  /** Rate limits, the school registry and forwarding to partner schools. */
  notifications: NotificationConfig;
  /** Who may call, from where, with what; the audit trail. */
  access: AccessSettings;
  /** How many processes serve the port (node:cluster); 1 serves from this process alone. */
  workers: number;
  /** Metrics, the status page and graceful stopping. */
  operator: OperatorSettings;
  /** How much a bundle may inflate to and how long `import` may read it. */
  imports: ImportSettings;
  /** The legacy service and who answers each operation while a school moves from it. */
  migration: MigrationSettings;
  /** The OneRoster REST provider the school is pulled from, and the schedule. */
  sis: SisSettings;
  /** Days after leaving before a student is erased (RETENTION_AFTER_LEAVING_DAYS); undefined: never. */
  retentionAfterLeavingDays: number | undefined;
  /** How a district deployment keeps its registered schools open (SCHOOLS_OPEN_MAX, SCHOOLS_IDLE_CLOSE_SECONDS). */
  schools: DistrictSettings;
}

function readHost(env: Environment): string {
  const host = env.HOST ?? '';
  if (host === '') return '0.0.0.0';
  if (!/^[A-Za-z0-9.:\-[\]]+$/.test(host))
    throw new ConfigError(`HOST must be a host name or IP address, got "${host}"`);
  return host;
}

/** Any absolute URI is a valid XML namespace; it is written into attributes, so markup characters are refused. */
function readNamespace(env: Environment): string {
  const raw = env.SERVICE_NAMESPACE;
  if (raw === undefined || raw === '') return 'http://tempuri.org/';
  // The namespace is used verbatim (ASMX keeps the trailing slash), so the caller's spelling is kept.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"'&]+$/.test(raw)) {
    throw new ConfigError(`SERVICE_NAMESPACE must be an absolute URI such as http://tempuri.org/, got "${raw}"`);
  }
  return raw;
}

function readLogLevel(env: Environment): LogLevel {
  const raw = env.LOG_LEVEL ?? '';
  if (raw === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

/** A setting that names one of a few choices, in any case; the default when unset. */
function readOneOf<Choice extends string>(
  env: Environment,
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const choice = choices.find((candidate) => candidate === raw.toLowerCase());
  if (!choice) throw new ConfigError(`${name} must be one of ${choices.join(', ')}, got "${raw}"`);
  return choice;
}

function readDatabaseUrl(env: Environment): string | undefined {
  const raw = env.DATABASE_URL ?? '';
  if (raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw new ConfigError('DATABASE_URL must be a postgres://user:password@host:port/database URL');
  }
  return raw;
}

/**
 * The environment each Config was read from, kept beside it rather than in it (a Config is shown in
 * the start-up line): a school of a district reads its own settings over the deployment's.
 */
const environments = new WeakMap<Config, Environment>();

/** The environment `config` was read from; undefined for a Config made otherwise (a copy with changes). */
export function environmentOf(config: Config): Environment | undefined {
  return environments.get(config);
}

export function loadConfig(env: Environment = process.env): Config {
  const publicBase = readAbsoluteUrl(env, 'PUBLIC_BASE_URL');
  const config: Config = {
    port: readInteger(env, 'PORT', 8080, 0, 65535),
    host: readHost(env),
    serviceNamespace: readNamespace(env),
    publicBaseUrl: publicBase ? publicBase.href.replace(/\/+$/, '') : undefined,
    maxBodyBytes: readInteger(env, 'MAX_BODY_BYTES', 1048576, 1024, 1073741824),
    budgets: readRequestBudgets(env),
    logLevel: readLogLevel(env),
    logFormat: readOneOf<LogFormat>(env, 'LOG_FORMAT', LOG_FORMATS, 'json'),
    dataDirectory: env.DATA_DIR || './data',
    databaseUrl: readDatabaseUrl(env),
    demoData: readSwitch(env, 'DEMO_DATA', true),
    contract: readOneOf<Profile>(env, 'CONTRACT', PROFILES, 'documented'),
    delivery: readDeliveryConfig(env),
    notifications: readNotificationConfig(env),
    access: readAccessSettings(env),
    workers: readInteger(env, 'WORKERS', 1, 1, 64),
    operator: readOperatorSettings(env),
    imports: readImportSettings(env),
    migration: readMigrationSettings(env),
    sis: readSisSettings(env),
    retentionAfterLeavingDays: readRetentionAfterLeavingDays(env),
    schools: readDistrictSettings(env),
  };
  environments.set(config, env);
  return config;
}

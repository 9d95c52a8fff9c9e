import { shownValue } from '../config/effective-settings';
import type { Environment } from '../config/readers';
import { SchoolEntryError } from './school-entry-error';

/**
 * The settings a school of a district may hold of its own (`schools set`): its SIS sync, its legacy
 * service and migration routes, and its notification settings. Each is an environment setting of
 * the same name, read over the deployment's when the school's configuration is made.
 */

/** Settings of the school's own sync (docs/sync.md): none of the deployment's is inherited. */
const SIS_SETTINGS = [
  'SIS_URL',
  'SIS_TOKEN_URL',
  'SIS_VERSION',
  'SIS_CLIENT_ID',
  'SIS_CLIENT_SECRET',
  'SIS_CLIENT_SECRET_FILE',
  'SIS_TOKEN_AUTH',
  'SIS_SCHOOL',
  'SIS_ALLOW_HTTP',
  'SIS_SYNC_INTERVAL',
  'SIS_SYNC_NOTIFY_MARKS',
  'SIS_SYNC_TIME_LIMIT_SECONDS',
  'SIS_PAGE_SIZE',
  'SIS_MAX_RECORDS',
  'SIS_MAX_RESPONSE_BYTES',
  'SIS_TIMEOUT_MS',
  'SIS_RETRIES',
  'SIS_BACKOFF_MS',
  'SIS_MAX_RETRY_AFTER_S',
] as const;

/** The school's own legacy service and who answers each operation (docs/migration.md): not inherited either. */
const LEGACY_SETTINGS = ['LEGACY_URL', 'ROUTES'] as const;

/** Notification settings (docs/notifications.md): the deployment's, unless the school sets its own. */
const NOTIFICATION_SETTINGS = [
  'SCHOOL_BASE_URL',
  'PARTNER_SCHOOLS',
  'FEDERATION_SECRET',
  'DEFAULT_COUNTRY_CODE',
  'AUTH_CODE_PER_PHONE_PER_MINUTE',
  'AUTH_CODE_PER_PHONE_PER_HOUR',
  'AUTH_CODE_PER_CALLER_PER_HOUR',
  'PUSH_NOTES_MAX_LENGTH',
  'PUSH_PER_SENDER_PER_MINUTE',
  'PUSH_PER_CALLER_PER_MINUTE',
  'PUSH_PER_DEVICE_PER_MINUTE',
  'MARK_NOTES_PER_CALLER_PER_MINUTE',
  'FORWARD_TIMEOUT_MS',
  'FORWARD_MAX_RESPONSE_BYTES',
] as const;

/**
 * Settings that name one school's outside services, or its address. A school inherits none of the
 * deployment's: the deployment's SIS would fill every school with the deployment's school (and its
 * client secret would go to any SIS_URL a school names), its legacy service would answer one
 * school's calls with another school's data, and its SCHOOL_BASE_URL names the deployment's own
 * school, whose calls a school taking it for its own address would answer from its own store.
 */
const NOT_INHERITED: ReadonlySet<string> = new Set([
  ...SIS_SETTINGS,
  ...LEGACY_SETTINGS,
  'SCHOOL_BASE_URL',
  'RECORD_FILE',
]);

export const SCHOOL_SETTING_NAMES: ReadonlySet<string> = new Set([
  ...SIS_SETTINGS,
  ...LEGACY_SETTINGS,
  ...NOTIFICATION_SETTINGS,
]);

/** A school's own settings: its name for each, and the value as the environment would hold it. */
export type SchoolSettings = Readonly<Record<string, string>>;

/** Long enough for a URL or ROUTES naming every operation; a bound on the list file. */
const VALUE_LENGTH = 2_000;

export function checkSettingName(name: string): string {
  if (!SCHOOL_SETTING_NAMES.has(name)) {
    throw new SchoolEntryError(
      `"${name.slice(0, 80)}" is not a setting a school holds of its own: SIS_*, LEGACY_URL, ROUTES ` +
        'or a notification setting (see docs/districts.md)',
    );
  }
  return name;
}

export function checkSettingValue(name: string, value: string): string {
  // A control character would end a line of the list or of a log; the value itself is never shown.
  if (value.length > VALUE_LENGTH || /\p{Cc}/u.test(value)) {
    throw new SchoolEntryError(`${name} is at most ${VALUE_LENGTH} characters without control characters`);
  }
  return value;
}

/** A school's settings from untrusted parts (the list file read back): every name and value checked. */
export function checkSchoolSettings(value: unknown): SchoolSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchoolEntryError("a school's settings must be an object of NAME: value");
  }
  const checked: Record<string, string> = {};
  for (const [name, setting] of Object.entries(value)) {
    if (typeof setting !== 'string') throw new SchoolEntryError(`a school's ${name.slice(0, 80)} must be text`);
    checked[checkSettingName(name)] = checkSettingValue(name, setting);
  }
  return checked;
}

/**
 * The environment a school's configuration is read from: the deployment's, without the settings
 * that name one school's outside services, and the school's own over it.
 */
export function schoolEnvironment(deployment: Environment, settings: SchoolSettings = {}): Environment {
  const environment: Environment = {};
  for (const [name, value] of Object.entries(deployment)) {
    if (!NOT_INHERITED.has(name)) environment[name] = value;
  }
  return { ...environment, ...settings };
}

/** A school's settings as `schools list` shows them: secrets and a URL's password as ***. */
export function shownSchoolSettings(settings: SchoolSettings): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, shownValue(name, value)]));
}

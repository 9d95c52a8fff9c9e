import { ConfigError, readInteger, type Environment } from './readers';
import { regionOfCallingCode } from '../lib/phone-number';
import { normaliseBaseUrl } from '../lib/school-address';

/** The rules of the notification operations and the school registry. */
export interface NotificationConfig {
  /** The school's country calling code: phone numbers are read for its region (966: SA). */
  defaultCountryCode: string;
  authCodePerPhonePerMinute: number;
  authCodePerPhonePerHour: number;
  authCodePerCallerPerHour: number;
  pushNotesMaxLength: number;
  pushPerSenderPerMinute: number;
  /** Pushes one caller (by name; a local caller by address) may ask for a minute, whatever senderId it gives. */
  pushPerCallerPerMinute: number;
  /** Pushes to one device a minute, from every caller and every operation together. */
  pushPerDevicePerMinute: number;
  /** SendMarkNotes calls one caller may make a minute. */
  markNotesPerCallerPerMinute: number;
  /** This deployment's own school; undefined: PUBLIC_BASE_URL, else the address the caller used. */
  schoolBaseUrl: string | undefined;
  /** Partner schools' normalised base URLs. */
  partnerSchools: readonly string[];
  federationSecret: string | undefined;
  forwardTimeoutMs: number;
  forwardMaxResponseBytes: number;
}

function readSchoolAddress(raw: string, name: string): string {
  const normalised = normaliseBaseUrl(raw);
  if (!normalised)
    throw new ConfigError(`${name} must hold http(s) base URLs without user, query or fragment, got "${raw}"`);
  return normalised;
}

export function readNotificationConfig(env: Environment): NotificationConfig {
  const countryCode = (env.DEFAULT_COUNTRY_CODE ?? '').trim().replace(/^\+/, '') || '966';
  // Phone numbers are read for the region the calling code names: a code no region has reads none.
  if (!/^[1-9]\d{0,2}$/.test(countryCode) || !regionOfCallingCode(countryCode))
    throw new ConfigError(
      `DEFAULT_COUNTRY_CODE must be a country calling code (966, 1, 44 ...), got "${env.DEFAULT_COUNTRY_CODE}"`,
    );
  const partners = (env.PARTNER_SCHOOLS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => readSchoolAddress(entry, 'PARTNER_SCHOOLS'));
  const secret = env.FEDERATION_SECRET || undefined;
  if (partners.length > 0 && !secret)
    throw new ConfigError('FEDERATION_SECRET must be set when PARTNER_SCHOOLS is: forwarded calls carry it');
  if (secret !== undefined && secret.length < 16)
    throw new ConfigError('FEDERATION_SECRET must be at least 16 characters long');
  return {
    defaultCountryCode: countryCode,
    authCodePerPhonePerMinute: readInteger(env, 'AUTH_CODE_PER_PHONE_PER_MINUTE', 1, 1, 1_000_000),
    authCodePerPhonePerHour: readInteger(env, 'AUTH_CODE_PER_PHONE_PER_HOUR', 5, 1, 1_000_000),
    authCodePerCallerPerHour: readInteger(env, 'AUTH_CODE_PER_CALLER_PER_HOUR', 30, 1, 1_000_000),
    pushNotesMaxLength: readInteger(env, 'PUSH_NOTES_MAX_LENGTH', 1_000, 1, 100_000),
    pushPerSenderPerMinute: readInteger(env, 'PUSH_PER_SENDER_PER_MINUTE', 60, 1, 1_000_000),
    pushPerCallerPerMinute: readInteger(env, 'PUSH_PER_CALLER_PER_MINUTE', 120, 1, 1_000_000),
    pushPerDevicePerMinute: readInteger(env, 'PUSH_PER_DEVICE_PER_MINUTE', 10, 1, 1_000_000),
    markNotesPerCallerPerMinute: readInteger(env, 'MARK_NOTES_PER_CALLER_PER_MINUTE', 30, 1, 1_000_000),
    schoolBaseUrl: env.SCHOOL_BASE_URL ? readSchoolAddress(env.SCHOOL_BASE_URL, 'SCHOOL_BASE_URL') : undefined,
    partnerSchools: partners,
    federationSecret: secret,
    forwardTimeoutMs: readInteger(env, 'FORWARD_TIMEOUT_MS', 5_000, 1, 600_000),
    forwardMaxResponseBytes: readInteger(env, 'FORWARD_MAX_RESPONSE_BYTES', 65_536, 1_024, 104_857_600),
  };
}

import { type Environment, readInteger } from './readers';

/**
 * The bounds of `school-service import`. The largest school measured (100,000 users, 5,000,000
 * results) is 330 MB of CSV and imports in 1.5 to 4 minutes on a busy 2-core machine, so the
 * defaults leave it three times the room in bytes and several times in time, and stop a bundle
 * that would inflate or run far beyond any school.
 */
export interface ImportSettings {
  /** Bytes a bundle's files may hold together, inflated. */
  readonly maxBytes: number;
  /** How long reading and checking a bundle may take. */
  readonly timeLimitMs: number;
}

export const DEFAULT_IMPORT_MAX_BYTES = 1_073_741_824;
export const DEFAULT_IMPORT_TIME_LIMIT_SECONDS = 1_800;

export function readImportSettings(env: Environment): ImportSettings {
  return {
    maxBytes: readInteger(env, 'IMPORT_MAX_BYTES', DEFAULT_IMPORT_MAX_BYTES, 1_024, 1_099_511_627_776),
    timeLimitMs: readInteger(env, 'IMPORT_TIME_LIMIT_SECONDS', DEFAULT_IMPORT_TIME_LIMIT_SECONDS, 1, 86_400) * 1000,
  };
}

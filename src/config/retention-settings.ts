import { type Environment, readInteger } from './readers';

/** Ten years: a longer wait is no retention a school would set. */
const LONGEST_RETENTION_DAYS = 3650;

/** RETENTION_AFTER_LEAVING_DAYS: days after a student leaves before the service erases them; unset: never. */
export function readRetentionAfterLeavingDays(env: Environment): number | undefined {
  const raw = env.RETENTION_AFTER_LEAVING_DAYS;
  if (raw === undefined || raw.trim() === '') return undefined;
  return readInteger(env, 'RETENTION_AFTER_LEAVING_DAYS', 0, 0, LONGEST_RETENTION_DAYS);
}

import { type Environment, readInteger } from './readers';

/** How a district deployment keeps its schools' stores open: opened at a school's first request, closed when idle. */
export interface DistrictSettings {
  /** The most schools a process holds open at once (SCHOOLS_OPEN_MAX); the least recently used closes first. */
  readonly openMax: number;
  /** How long a school answers no request before its store is closed (SCHOOLS_IDLE_CLOSE_SECONDS), in ms. */
  readonly idleCloseMs: number;
}

/** A deployment lists at most 1,000 schools (src/district/school-list.ts): more open stores than that mean nothing. */
const MOST_SCHOOLS = 1_000;

export function readDistrictSettings(env: Environment): DistrictSettings {
  return {
    openMax: readInteger(env, 'SCHOOLS_OPEN_MAX', 200, 1, MOST_SCHOOLS),
    idleCloseMs: readInteger(env, 'SCHOOLS_IDLE_CLOSE_SECONDS', 600, 1, 86_400) * 1000,
  };
}

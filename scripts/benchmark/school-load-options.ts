import { wholeNumber } from './options';

/** The flags every benchmark that loads a generated school with wrk takes, and their reading. */
export interface SchoolLoadOptions {
  readonly students: number;
  readonly seed: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly build: boolean;
}

export interface SchoolLoadDefaults {
  readonly students: number;
  readonly seed: number;
  readonly duration: number;
  readonly warmup: number;
  readonly connections: number;
}

/** The flags' declarations for node:util's parseArgs, with a benchmark's own defaults. */
export function schoolLoadFlags(defaults: SchoolLoadDefaults) {
  return {
    students: { type: 'string', default: String(defaults.students) },
    seed: { type: 'string', default: String(defaults.seed) },
    duration: { type: 'string', default: String(defaults.duration) },
    warmup: { type: 'string', default: String(defaults.warmup) },
    connections: { type: 'string', default: String(defaults.connections) },
    'no-build': { type: 'boolean', default: false },
  } as const;
}

/** The flags' values, each a whole number within its bounds (a UsageError names the flag otherwise). */
export function readSchoolLoadOptions(values: {
  students: string;
  seed: string;
  duration: string;
  warmup: string;
  connections: string;
  'no-build': boolean;
}): SchoolLoadOptions {
  return {
    students: wholeNumber('--students', values.students, 1, 1_000_000),
    seed: wholeNumber('--seed', values.seed, 1, 1_000_000),
    durationSeconds: wholeNumber('--duration', values.duration, 1, 300),
    warmupSeconds: wholeNumber('--warmup', values.warmup, 1, 60),
    connections: wholeNumber('--connections', values.connections, 1, 1_000),
    build: !values['no-build'],
  };
}

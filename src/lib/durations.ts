/**
 * Spans of time as an operator writes them on the command line: a whole number and a unit, `30s`,
 * `30m`, `24h`, `7d`, `2w`. One reader, so that every option taking a span takes the same forms.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Thrown for a span that is not of the forms above; the message says which forms are. */
export class DurationError extends Error {}

/** Milliseconds of a span such as `24h`; `0` alone is none. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const match = /^(\d{1,6})([smhdw])$/.exec(trimmed);
  if (!match) {
    throw new DurationError(`"${text}" is not a span of time: a whole number and s, m, h, d or w (30m, 24h, 7d)`);
  }
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** A span in its largest whole unit, as parseDuration reads it back: 86400000 is `1d`, 5400000 is `90m`. */
export function formatDuration(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm', 's']) {
    if (ms !== 0 && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return ms === 0 ? '0' : `${ms}ms`;
}

/**
 * Moments as an operator writes and reads them, in the service's time zone (the process's: TZ, or
 * the machine's). A date alone means the end of that day there, so that `--expires 2027-06-30`
 * lets a caller in for the whole of the 30th wherever the school is.
 */

/** Thrown for text that is not a date or a date-time, or names a day that does not exist. */
export class MomentError extends Error {}

const MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** The instant of `2027-06-30` (the end of that day, local), `2027-06-30T18:00` (local) or one with Z or an offset. */
export function parseMoment(text: string): Date {
  const match = MOMENT.exec(text.trim());
  if (!match) {
    throw new MomentError(`"${text}" is not a date (2027-06-30) or a date-time (2027-06-30T18:00, 2027-06-30T18:00Z)`);
  }
  const [year, month, day, hour, minute, second, fraction, zone] = match.slice(1);
  const [y, mo, d] = [Number(year), Number(month), Number(day)];
  // Date.parse rolls 2013-02-30 over to 2 March; a day that does not exist is a mistake to report.
  const lastDay = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (mo < 1 || mo > 12 || d < 1 || d > lastDay) throw new MomentError(`no such day: ${year}-${month}-${day}`);
  if (hour === undefined) return new Date(y, mo - 1, d, 23, 59, 59, 999);
  const [h, mi, s] = [Number(hour), Number(minute), Number(second ?? 0)];
  if (h > 23 || mi > 59 || s > 59) throw new MomentError(`no such time of day: ${hour}:${minute}:${second ?? '00'}`);
  const ms = Number((fraction ?? '0').padEnd(3, '0'));
  if (zone === undefined) return new Date(y, mo - 1, d, h, mi, s, ms);
  const offsetMinutes =
    zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMinutes * 60_000);
}

const two = (value: number) => String(value).padStart(2, '0');

/** An instant in the service's time zone with its offset: `2027-06-30 23:59:59 +03:00`. */
export function formatLocalMoment(at: Date): string {
  const offset = -at.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return (
    `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ` +
    `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())} ${zone}`
  );
}

/**
 * How a YYYY-MM-DD date (alone, or the start of a date and time) reads: a day of the calendar, a
 * day the calendar does not have (2013-02-30, 2023-02-29: JavaScript's Date rolls those over into
 * the next month without a word), or no date at all.
 */
export type DateReading = 'day' | 'no-such-day' | 'not-a-date';

const DATE_START = /^(\d{4})-(\d{2})-(\d{2})/;

export function readCalendarDate(text: string): DateReading {
  const match = DATE_START.exec(text);
  if (!match) return 'not-a-date';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12) return 'not-a-date';
  if (day < 1) return 'no-such-day';
  return day <= daysInMonth(year, month) ? 'day' : 'no-such-day';
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Counted, not asked of a Date: an import reads a date or two of every one of millions of rows. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

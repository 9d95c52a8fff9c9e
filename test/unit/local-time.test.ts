import { formatLocalMoment, MomentError, parseMoment } from '../../src/lib/local-time';

/**
 * Moments in the time zone of the process running the tests, whichever it is (the callers command's
 * test runs one in a zone three hours ahead of UTC): local forms are compared with local dates.
 */
describe('moments in the service time zone', () => {
  test('a date alone is the end of that day there', () => {
    expect(parseMoment('2027-06-30')).toEqual(new Date(2027, 5, 30, 23, 59, 59, 999));
  });

  test('a date-time without a zone is local; with Z or an offset it is that instant', () => {
    expect(parseMoment('2027-06-30T18:00')).toEqual(new Date(2027, 5, 30, 18, 0));
    expect(parseMoment('2027-06-30 18:00:30')).toEqual(new Date(2027, 5, 30, 18, 0, 30));
    expect(parseMoment('2027-06-30T18:00Z').toISOString()).toBe('2027-06-30T18:00:00.000Z');
    expect(parseMoment('2027-06-30T18:00:00.5+01:30').toISOString()).toBe('2027-06-30T16:30:00.500Z');
    expect(parseMoment('2027-06-30T18:00-05:00').toISOString()).toBe('2027-06-30T23:00:00.000Z');
  });

  test.each(['2013-02-30', '2027-13-01', '2027-04-31', '2027-06-30T24:00', '2027-06-30T18:60'])(
    '%s names no such day or time',
    (text) => {
      expect(() => parseMoment(text)).toThrow(/^no such (day|time of day)/);
    },
  );

  test.each(['tomorrow', '30/06/2027', '2027-6-30', '2027-06-30T18', '2027-06-30T18:00+3'])(
    '"%s" is refused',
    (text) => {
      expect(() => parseMoment(text)).toThrow(MomentError);
    },
  );

  test('a leap day exists in a leap year only', () => {
    expect(parseMoment('2028-02-29')).toEqual(new Date(2028, 1, 29, 23, 59, 59, 999));
    expect(() => parseMoment('2027-02-29')).toThrow('no such day: 2027-02-29');
  });

  test('an instant is shown in the time zone with its offset, and reads back as the same second', () => {
    const shown = formatLocalMoment(new Date(2027, 5, 30, 23, 59, 59, 999));
    expect(shown).toMatch(/^2027-06-30 23:59:59 [+-]\d{2}:\d{2}$/);
    const [date, time, zone] = shown.split(' ');
    expect(parseMoment(`${date}T${time}${zone}`)).toEqual(new Date(2027, 5, 30, 23, 59, 59));
  });
});

import { effectiveSettings } from '../../src/config/effective-settings';
import { parseEnvironmentFile } from '../../src/config/env-file';
import { loadConfig } from '../../src/config/service-config';
import { readCalendarDate } from '../../src/lib/calendar-date';
import { counted } from '../../src/lib/counted';
import { callsChart, roundAxis } from '../../src/pages/calls-chart';

/** What an operator reads: counts with their plurals, days the calendar has, round axes, masked settings. */

describe('counts in summaries', () => {
  test('take the singular for one and group thousands', () => {
    expect(counted(1, 'problem')).toBe('1 problem');
    expect(counted(0, 'problem')).toBe('0 problems');
    expect(counted(12_345, 'row')).toBe('12,345 rows');
    expect(counted(2, 'class', 'classes')).toBe('2 classes');
  });
});

describe('calendar dates', () => {
  test('a day the calendar lacks is no such day, not the next month', () => {
    expect(readCalendarDate('2013-02-30')).toBe('no-such-day');
    expect(readCalendarDate('2023-02-29')).toBe('no-such-day');
    expect(readCalendarDate('2024-02-29')).toBe('day');
    expect(readCalendarDate('2026-04-31T10:00:00Z')).toBe('no-such-day');
    expect(readCalendarDate('2026-12-31')).toBe('day');
    expect(readCalendarDate('2026-00-10')).toBe('not-a-date');
    expect(readCalendarDate('yesterday')).toBe('not-a-date');
  });

  test('have February 29 in leap years only, centuries by the 400-year rule', () => {
    expect(readCalendarDate('2000-02-29')).toBe('day');
    expect(readCalendarDate('1900-02-29')).toBe('no-such-day');
    expect(readCalendarDate('2100-02-29')).toBe('no-such-day');
    expect(readCalendarDate('2028-02-29T00:00:00.000Z')).toBe('day');
    expect(readCalendarDate('2026-06-31')).toBe('no-such-day');
    expect(readCalendarDate('2026-07-31')).toBe('day');
  });
});

describe("the status chart's axis", () => {
  test('runs from 0 to a round top in round steps', () => {
    expect(roundAxis(0)).toEqual({ top: 1, step: 1 });
    expect(roundAxis(3)).toEqual({ top: 3, step: 1 });
    expect(roundAxis(63)).toEqual({ top: 80, step: 20 });
    expect(roundAxis(100)).toEqual({ top: 100, step: 20 });
    expect(roundAxis(4_321)).toEqual({ top: 5_000, step: 1_000 });
  });

  test('labels its lines with those round numbers', () => {
    const chart = callsChart([{ minute: '2026-11-26T10:00:00.000Z', calls: { HelloWorld: 63 } }]);
    const labels = [...chart.matchAll(/text-anchor="end">([^<]+)</g)].map((match) => match[1]);
    expect(labels).toEqual(['0', '20', '40', '60', '80']);
    expect(chart).toContain('HelloWorld: 63 calls');
  });
});

describe('the effective settings of the start-up line', () => {
  test('show every setting with secrets masked, a URL without its password', () => {
    const settings = effectiveSettings(
      loadConfig({
        OUTBOX_KEY: 'ab'.repeat(32),
        DATABASE_URL: 'postgres://school:hunter2@db:5432/school',
        PUSH_GATEWAY_URL: 'https://push.example.org/send',
        PUSH_GATEWAY_TOKEN: 'push-token',
      }),
    );
    const text = JSON.stringify(settings);
    for (const secret of ['ab'.repeat(32), 'hunter2', 'push-token']) expect(text).not.toContain(secret);
    expect(settings.databaseUrl).toBe('postgres://school:***@db:5432/school');
    expect(settings).toMatchObject({ port: 8080, delivery: { outboxKey: '***', push: { token: '***' } } });
  });
});

describe('the settings file', () => {
  test('is read as systemd reads an EnvironmentFile', () => {
    const text =
      '# comment\n; another\n\nPORT=8081\nNAME = "a \\"quoted\\" value"\nRAW=\'$HOME \\n\'\nLONG=one \\\ntwo\n';
    expect(parseEnvironmentFile(text, 'env')).toEqual({
      PORT: '8081',
      NAME: 'a "quoted" value',
      RAW: '$HOME \\n',
      LONG: 'one two',
    });
    expect(() => parseEnvironmentFile('PORT 8081\n', 'env')).toThrow('env line 1 is not NAME=value');
    expect(() => parseEnvironmentFile('PORT="8081\n', 'env')).toThrow('env line 1: a quote is not closed');
  });
});

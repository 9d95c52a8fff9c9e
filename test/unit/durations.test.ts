import { DurationError, formatDuration, parseDuration } from '../../src/lib/durations';

describe('spans of time as the operator writes them', () => {
  test.each([
    ['30s', 30_000],
    ['30m', 1_800_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    ['2w', 1_209_600_000],
    ['0', 0],
    [' 90m ', 5_400_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each(['', '24', 'h', '1.5h', '-1h', '24 h', '1d12h', '24hours', '9999999d'])('"%s" is refused', (text) => {
    expect(() => parseDuration(text)).toThrow(DurationError);
  });

  test('a span is written in its largest whole unit and read back the same', () => {
    expect([86_400_000, 5_400_000, 45_000, 0].map(formatDuration)).toEqual(['1d', '90m', '45s', '0']);
    for (const text of ['1d', '90m', '45s', '3w']) expect(formatDuration(parseDuration(text))).toBe(text);
  });
});

import { FieldReader } from '../../src/roster/fields';
import { Problems } from '../../src/roster/problems';

/**
 * dateLastModified as the import reads it: a timestamp already in toISOString's form is taken as
 * it is (millions of rows of a sync's bundle carry one), every other form is parsed and written in
 * that form, and a day or hour the calendar lacks is a problem either way.
 */
function readTimestamps(values: readonly string[]): { read: Array<string | undefined>; problems: string[] } {
  const problems = new Problems();
  const reader = new FieldReader('results.csv', new Map([['datelastmodified', 0]]), problems, ['dateLastModified']);
  const read = values.map((value, index) => {
    reader.begin({ line: index + 2, values: [value] });
    return reader.timestamp('dateLastModified', true);
  });
  return { read, problems: problems.list().problems.map((problem) => `${problem.line}: ${problem.message}`) };
}

describe('timestamps of a file', () => {
  test('in toISOString form are kept, other forms are written in it', () => {
    const { read, problems } = readTimestamps([
      '2026-09-01T00:00:00.000Z',
      '2026-09-01T00:00:00.000Z',
      '2026-09-01T10:00:00+02:00',
      '20260901T100000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-09-01',
      // The end of a day, which Date reads as the next day's start: not taken as it is.
      '2026-09-01T24:00:00.000Z',
    ]);
    expect(problems).toEqual([]);
    expect(read).toEqual([
      '2026-09-01T00:00:00.000Z',
      '2026-09-01T00:00:00.000Z',
      '2026-09-01T08:00:00.000Z',
      '2026-09-01T10:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-09-01T00:00:00.000Z',
      '2026-09-02T00:00:00.000Z',
    ]);
  });

  test('a day or a time the calendar lacks is a problem, also in toISOString form', () => {
    const { read, problems } = readTimestamps([
      '2026-09-01T00:00:00.000Z',
      '2023-02-29T00:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2026-09-01T25:00:00.000Z',
      '2026-09-01T10:61:00.000Z',
      '2026-13-01T00:00:00.000Z',
    ]);
    expect(read).toEqual(['2026-09-01T00:00:00.000Z', undefined, undefined, undefined, undefined, undefined]);
    expect(problems).toEqual([
      '3: dateLastModified "2023-02-29T00:00:00.000Z": no such day',
      '4: dateLastModified "2026-04-31T10:00:00.000Z": no such day',
      '5: dateLastModified "2026-09-01T25:00:00.000Z" is not an ISO 8601 date and time',
      '6: dateLastModified "2026-09-01T10:61:00.000Z" is not an ISO 8601 date and time',
      '7: dateLastModified "2026-13-01T00:00:00.000Z" is not an ISO 8601 date and time',
    ]);
  });
});

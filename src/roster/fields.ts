import type { CsvRow } from './csv-file';
import { readCalendarDate } from '../lib/calendar-date';
import type { Problems, Rule, WarningKind } from './problems';

/**
 * Reads the fields of one row of a file by header name and checks each against its rule, recording
 * a problem at the field's line and column when it breaks one. A row with any problem is not `ok`
 * and is left out.
 */

/** The longest value of a name, title or code; notes and texts may be longer. */
export const MAX_NAME_LENGTH = 255;
export const MAX_TEXT_LENGTH = 4000;

/**
 * Characters no XML 1.0 document can hold, not even escaped: C0 controls but tab, LF and CR, and
 * U+FFFE and U+FFFF. A name holding one (an escape sequence a SIS let through) would make every
 * SOAP and HTTP answer naming it a document clients refuse to read, so it is refused here.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601, extended or basic: a date, or a date and time with optional seconds, fraction and zone. */
const TIMESTAMP =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[Tt ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The ISO 8601 text in the one form Date.parse reads (extended, a zone of ±HH:MM), or undefined. */
function extendedTimestamp(value: string): string | undefined {
  const match = TIMESTAMP.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '0', zone = ''] = match;
  if (hour === undefined) return `${year}-${month}-${day}`;
  const minutes = zone.length > 3 ? zone.slice(-2) : '00';
  const zoned = /^[+-]/.test(zone) ? `${zone.slice(0, 3)}:${minutes}` : zone.toUpperCase();
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${fraction.padEnd(3, '0').slice(0, 3)}${zoned}`;
}
/**
 * A timestamp already in the one form the reader gives back (what toISOString writes, as OneRoster
 * REST providers and the sync's bundle send it): when its day is on the calendar it is returned as
 * it is, without parsing it into a Date and writing it out again. That took a fifth of the time
 * of reading a result of the sync's bundle, 5,000,000 times over.
 */
const CANONICAL_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;

export interface TextOptions {
  readonly required?: boolean;
  readonly max?: number;
}

/**
 * `Name`: the columns a reader may ask for, for a OneRoster file the names its column list
 * declares (oneroster-columns.ts), so that a reader naming a column the list lacks does not compile.
 */
export class FieldReader<Name extends string = string> {
  private current: CsvRow = { line: 1, values: [] };
  private problemCount = 0;
  /** The file that cannot be read that the current row depends on, when that is all that is wrong with it. */
  private quietCause: object | undefined;
  /** The last timestamp found canonical and on the calendar (see CANONICAL_TIMESTAMP). */
  private lastTimestamp = '';

  /** Per header field: the name a reader asked for it by, at its first read ('' while never read). */
  private readonly asked: string[];
  private readonly lowerCaseNames: readonly string[];

  constructor(
    readonly file: string,
    private readonly header: ReadonlyMap<string, number>,
    private readonly problems: Problems,
    private readonly names: readonly string[] = [],
  ) {
    this.asked = names.map(() => '');
    this.lowerCaseNames = names.map((name) => name.toLowerCase());
  }

  /**
   * Once the file is read: a warning per column spelt in another letter case than the binding's
   * (the binding's names are case-sensitive; vendors write `orgSourcedIDs`), and one note listing
   * the columns no row was read for (unknown columns, metadata.* the store does not use).
   */
  finish(): void {
    const unread: string[] = [];
    this.names.forEach((name, index) => {
      const asked = this.asked[index];
      if (asked === '') {
        if (name !== '' && this.header.get(name.toLowerCase()) === index) unread.push(name);
      } else if (asked !== name) {
        this.problems.warn({
          file: this.file,
          line: 1,
          column: index + 1,
          kind: 'header-case',
          message: `header "${name}" is read as "${asked}" (the binding's names are case-sensitive)`,
        });
      }
    });
    if (unread.length > 0) {
      this.problems.note({
        file: this.file,
        line: 1,
        column: this.names.indexOf(unread[0]) + 1,
        kind: 'columns-not-read',
        message: `not read: ${unread.join(', ')}`,
      });
    }
  }

  /** Reports each required column the header lacks (a problem of the whole file); true when none is missing. */
  requireColumns(names: readonly string[]): boolean {
    const missing = names.filter((name) => !this.header.has(name.toLowerCase()));
    for (const name of missing) {
      this.problems.add({
        file: this.file,
        line: 1,
        column: this.header.size + 1,
        rule: 'missing-column',
        message: `the header has no ${name} column`,
      });
    }
    return missing.length === 0;
  }

  hasColumn(name: Name): boolean {
    return this.header.has(name.toLowerCase());
  }

  /**
   * Values for columns the header does not have, for the current row: a OneRoster 1.2 user's
   * `role` and `orgSourcedIds`, which come from roles.csv.
   */
  give(values: ReadonlyMap<string, string>): void {
    this.given = values;
  }

  private given: ReadonlyMap<string, string> = new Map();

  begin(row: CsvRow): void {
    this.current = row;
    this.problemCount = 0;
    this.quietCause = undefined;
  }

  get line(): number {
    return this.current.line;
  }

  /** The unreadable file (its record in the book) the row was left out for, when nothing else is wrong with it. */
  get quietlyInvalid(): object | undefined {
    return this.problemCount === 1 ? this.quietCause : undefined;
  }

  get ok(): boolean {
    return this.problemCount === 0;
  }

  /** The field's position in the row (1 for the first), or the position after the last column when there is none. */
  column(name: Name): number {
    const index = this.header.get(name.toLowerCase());
    return index === undefined ? this.header.size + 1 : index + 1;
  }

  fail(name: Name, rule: Rule, message: string): undefined {
    this.problemCount += 1;
    this.problems.add({ file: this.file, line: this.current.line, column: this.column(name), rule, message });
    return undefined;
  }

  /** The row is left out without a problem of its own: it names a record of a file that cannot be read. */
  failQuietly(cause: object): undefined {
    if (this.problemCount === 0) this.quietCause = cause;
    this.problemCount += 1;
    return undefined;
  }

  /** A problem found later with a row already read (a reference resolved after the whole file). */
  failAt(line: number, name: Name, rule: Rule, message: string): void {
    this.problems.add({ file: this.file, line, column: this.column(name), rule, message });
  }

  /** A warning at the current row's field: something inferred or read past, never a refusal. */
  warn(name: Name, kind: WarningKind, message: string): void {
    this.warnAt(this.current.line, name, kind, message);
  }

  warnAt(line: number, name: Name, kind: WarningKind, message: string): void {
    this.problems.warn({ file: this.file, line, column: this.column(name), kind, message });
  }

  /**
   * The current row's non-empty fields as written, by header name, but those `skip` names (by the
   * lower-cased name): undefined when none is left. Once a row, millions of times: no array is
   * made for fields left out.
   */
  writtenFieldsBut(skip: (lowerCaseName: string, value: string) => boolean): Record<string, string> | undefined {
    let fields: Record<string, string> | undefined;
    const { values } = this.current;
    for (let index = 0; index < this.names.length; index += 1) {
      const name = this.names[index];
      const value = values[index] ?? '';
      if (name === '' || value === '' || skip(this.lowerCaseNames[index], value)) continue;
      fields ??= {};
      fields[name] = value;
    }
    return fields;
  }

  /** The current row's non-empty fields as written, by header name (for the fields an export gives back). */
  writtenFields(): Array<[name: string, value: string]> {
    return this.names.flatMap((name, index) => {
      const value = this.current.values[index] ?? '';
      return name !== '' && value !== '' ? [[name, value] as [string, string]] : [];
    });
  }

  /** The raw value, trimmed; '' when the column or the field is absent. */
  raw(name: Name): string {
    const index = this.header.get(name.toLowerCase());
    if (index === undefined) return this.given.get(name) ?? '';
    if (this.asked[index] === '') this.asked[index] = name;
    return (this.current.values[index] ?? '').trim();
  }

  text(name: Name, options: TextOptions = {}): string {
    const value = this.raw(name);
    const max = options.max ?? MAX_NAME_LENGTH;
    if (value === '' && options.required) this.fail(name, 'missing-value', `${name} is required`);
    else if ([...value].length > max) this.fail(name, 'too-long', `${name} is longer than ${max} characters`);
    else if (NOT_IN_XML.test(value)) {
      const code = (NOT_IN_XML.exec(value)?.[0] ?? '').charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      this.fail(name, 'bad-character', `${name} holds the control character U+${code}, which no answer can carry`);
    }
    return value;
  }

  /** A value that must be present, or undefined (with a problem). */
  required(name: Name, max = MAX_NAME_LENGTH): string | undefined {
    const value = this.text(name, { required: true, max });
    return value === '' ? undefined : value;
  }

  date(name: Name, required: boolean): string | undefined {
    const value = this.raw(name);
    if (value === '') return required ? this.fail(name, 'missing-value', `${name} is required`) : undefined;
    const reading = DATE.test(value) ? readCalendarDate(value) : 'not-a-date';
    if (reading === 'day') return value;
    if (reading === 'no-such-day') return this.fail(name, 'bad-date', `${name} "${clip(value)}": no such day`);
    return this.fail(name, 'bad-date', `${name} "${clip(value)}" is not a date (YYYY-MM-DD)`);
  }

  timestamp(name: Name, required: boolean): string | undefined {
    const value = this.raw(name);
    if (value === '') return required ? this.fail(name, 'missing-value', `${name} is required`) : undefined;
    if (value === this.lastTimestamp) return value;
    if (CANONICAL_TIMESTAMP.test(value) && readCalendarDate(value) === 'day') {
      // Rows of a file mostly share a few modification times: the last one is remembered.
      this.lastTimestamp = value;
      return value;
    }
    const extended = extendedTimestamp(value);
    if (extended !== undefined && readCalendarDate(extended) === 'no-such-day') {
      return this.fail(name, 'bad-date', `${name} "${clip(value)}": no such day`);
    }
    const time = extended === undefined ? Number.NaN : Date.parse(extended);
    if (Number.isNaN(time)) {
      return this.fail(name, 'bad-date', `${name} "${clip(value)}" is not an ISO 8601 date and time`);
    }
    return new Date(time).toISOString();
  }

  time(name: Name, required: boolean): string | undefined {
    const value = this.raw(name);
    if (value === '') return required ? this.fail(name, 'missing-value', `${name} is required`) : undefined;
    const match = TIME.exec(value);
    return match
      ? `${match[1]}:${match[2]}`
      : this.fail(name, 'bad-date', `${name} "${clip(value)}" is not a time (HH:MM)`);
  }

  number(name: Name, required: boolean, range: { min?: number; max?: number } = {}): number | undefined {
    const value = this.raw(name);
    if (value === '') return required ? this.fail(name, 'missing-value', `${name} is required`) : undefined;
    const parsed = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) ? Number(value) : Number.NaN;
    const { min = -1e9, max = 1e9 } = range;
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      return this.fail(name, 'bad-number', `${name} "${clip(value)}" is not a number from ${min} to ${max}`);
    }
    return parsed;
  }

  integer(name: Name, required: boolean, range: { min?: number; max?: number } = {}): number | undefined {
    const value = this.number(name, required, range);
    if (value === undefined || Number.isInteger(value)) return value;
    return this.fail(name, 'bad-number', `${name} "${clip(this.raw(name))}" is not a whole number`);
  }

  oneOf<Value extends string>(name: Name, values: readonly Value[], required: boolean): Value | undefined {
    const value = this.raw(name);
    if (value === '') return required ? this.fail(name, 'missing-value', `${name} is required`) : undefined;
    const found = values.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    return found ?? this.fail(name, 'unknown-value', `${name} "${clip(value)}" is not one of ${values.join(', ')}`);
  }

  boolean(name: Name, required: boolean): boolean | undefined {
    const value = this.oneOf(name, ['true', 'false'], required);
    return value === undefined ? undefined : value === 'true';
  }

  /** A comma-separated list of sourcedIds (OneRoster's plural columns). */
  list(name: Name): string[] {
    return this.raw(name)
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  }
}

/** A value quoted in a message, cut short so a huge field does not flood the report. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

import type { Json } from '../roster/rest-records';

/**
 * The binding's `filter` parameter (OneRoster 1.2 REST binding, §3.4.2): predicates
 * `field<op>'value'` with the operators = != > >= < <= and ~ (contains), joined by AND and OR (AND
 * binding first). A field may name a nested one (`school.sourcedId`, `roles.role`); a list matches
 * when any of its elements does. Values compare as numbers when both are numbers, else as text
 * (dateLastModified is ISO 8601, so text order is time order).
 */
export type RecordTest = (record: Json) => boolean;

export type FilterParse =
  | { readonly ok: true; readonly test: RecordTest }
  | { readonly ok: false; readonly problem: string };

/** The longest filter taken, and the most predicates in one. */
export const MAX_FILTER_LENGTH = 2_000;
const MAX_PREDICATES = 20;
const PREDICATE = /^\s*([A-Za-z][A-Za-z0-9_.]*)\s*(!=|>=|<=|=|>|<|~)\s*'([^']*)'\s*$/;

/** The values a dotted field has in a record: several where it passes through a list. */
export function valuesAt(record: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return Array.isArray(record) ? record : [record];
  if (Array.isArray(record)) return record.flatMap((element) => valuesAt(element, path));
  if (record === null || typeof record !== 'object') return [];
  const value = (record as Json)[path[0]];
  return value === undefined ? [] : valuesAt(value, path.slice(1));
}

/** Compares two values as numbers when both are, else as text. */
export function compareValues(left: unknown, right: string): number {
  const text = typeof left === 'string' ? left : JSON.stringify(left ?? '');
  const [a, b] = [Number(text), Number(right)];
  if (text.trim() !== '' && right.trim() !== '' && !Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  return text < right ? -1 : text > right ? 1 : 0;
}

const MATCHES: Record<string, (left: unknown, right: string) => boolean> = {
  '=': (left, right) => compareValues(left, right) === 0,
  '!=': (left, right) => compareValues(left, right) !== 0,
  '>': (left, right) => compareValues(left, right) > 0,
  '>=': (left, right) => compareValues(left, right) >= 0,
  '<': (left, right) => compareValues(left, right) < 0,
  '<=': (left, right) => compareValues(left, right) <= 0,
  '~': (left, right) => String(left).toLowerCase().includes(right.toLowerCase()),
};

/** Splits on a logical word outside quoted values. */
function splitOutsideQuotes(text: string, word: 'AND' | 'OR'): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  const separator = ` ${word} `;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === "'") quoted = !quoted;
    else if (!quoted && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      start = index + separator.length;
      index = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The filter's test, or the problem with it; `knownField` says whether a field (its first part) exists. */
export function parseFilter(filter: string, knownField: (field: string) => boolean): FilterParse {
  if (filter.length > MAX_FILTER_LENGTH)
    return { ok: false, problem: `the filter is over ${MAX_FILTER_LENGTH} characters` };
  const alternatives = splitOutsideQuotes(filter, 'OR').map((part) => splitOutsideQuotes(part, 'AND'));
  if (alternatives.flat().length > MAX_PREDICATES) return { ok: false, problem: `over ${MAX_PREDICATES} predicates` };
  const tests: RecordTest[][] = [];
  for (const conjunction of alternatives) {
    const all: RecordTest[] = [];
    for (const predicate of conjunction) {
      const match = PREDICATE.exec(predicate);
      if (!match) return { ok: false, problem: `"${predicate.trim().slice(0, 100)}" is not field<op>'value'` };
      const [, field, operator, value] = match;
      if (!knownField(field.split('.')[0])) return { ok: false, problem: `there is no field ${field}` };
      const path = field.split('.');
      const matches = MATCHES[operator];
      all.push((record) => valuesAt(record, path).some((left) => matches(left, value)));
    }
    tests.push(all);
  }
  return { ok: true, test: (record) => tests.some((all) => all.every((test) => test(record))) };
}

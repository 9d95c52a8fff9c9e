import type { Json } from '../roster/rest-records';
import { parseFilter, type RecordTest } from './record-filter';

/**
 * What a collection request asks of the records (OneRoster 1.2 REST binding, §3.4): a page
 * (`limit`, default 100, up to 10,000; `offset`), an order (`sort`, `orderBy`), a `filter` and the
 * `fields` to answer with. A field no record of the collection has is refused by name.
 */
export interface RecordQuery {
  readonly limit: number;
  readonly offset: number;
  readonly test: RecordTest | undefined;
  readonly sort: { readonly path: readonly string[]; readonly descending: boolean } | undefined;
  readonly fields: readonly string[] | undefined;
}

export type QueryProblem = {
  readonly codeMinor: 'invalid_filter_field' | 'invalid_selection_field' | 'invalid_sort_field' | 'invaliddata';
  readonly problem: string;
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
const MAX_OFFSET = 2_147_483_647;
const MAX_FIELDS_LENGTH = 1_000;

function wholeNumber(text: string | null, fallback: number, least: number, most: number): number | undefined {
  if (text === null) return fallback;
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value < least ? undefined : Math.min(value, most);
}

/** The query of a request's parameters, or the problem with them; `knownField` names the collection's fields. */
export function parseQuery(
  search: URLSearchParams,
  knownField: (field: string) => boolean,
): RecordQuery | QueryProblem {
  const limit = wholeNumber(search.get('limit'), DEFAULT_LIMIT, 1, MAX_LIMIT);
  const offset = wholeNumber(search.get('offset'), 0, 0, MAX_OFFSET);
  if (limit === undefined || offset === undefined) {
    return { codeMinor: 'invaliddata', problem: 'limit must be a whole number from 1, offset one from 0' };
  }
  let test: RecordTest | undefined;
  const filter = search.get('filter');
  if (filter !== null) {
    const parsed = parseFilter(filter, knownField);
    if (!parsed.ok) return { codeMinor: 'invalid_filter_field', problem: `filter: ${parsed.problem}` };
    test = parsed.test;
  }
  const sortField = search.get('sort');
  if (sortField !== null && !knownField(sortField.split('.')[0])) {
    return { codeMinor: 'invalid_sort_field', problem: `sort: there is no field ${sortField.slice(0, 100)}` };
  }
  const orderBy = search.get('orderBy') ?? 'asc';
  if (orderBy !== 'asc' && orderBy !== 'desc') return { codeMinor: 'invaliddata', problem: 'orderBy is asc or desc' };
  const sort = sortField === null ? undefined : { path: sortField.split('.'), descending: orderBy === 'desc' };
  const fieldsText = search.get('fields');
  let fields: string[] | undefined;
  if (fieldsText !== null) {
    fields = fieldsText.split(',').map((field) => field.trim());
    const unknown = fields.find((field) => !knownField(field));
    if (fieldsText.length > MAX_FIELDS_LENGTH || unknown !== undefined) {
      return {
        codeMinor: 'invalid_selection_field',
        problem: `fields: there is no field ${String(unknown).slice(0, 100)}`,
      };
    }
  }
  return { limit, offset, test, sort, fields };
}

/** A record with only the fields asked for. */
export function withFields(record: Json, fields: readonly string[] | undefined): Json {
  if (!fields) return record;
  const chosen: Json = {};
  for (const field of fields) if (field in record) chosen[field] = record[field];
  return chosen;
}

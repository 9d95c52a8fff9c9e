import type { Json } from '../roster/rest-records';
import { compareValues, valuesAt } from './record-filter';
import { type QueryProblem, parseQuery, type RecordQuery } from './record-query';

/** A record a scan came to: mapped to the binding's JSON only when asked (once). */
export type SeenRecord = () => Json;

/**
 * One pass over a collection's records (those the caller sees) in the file's order; `visit`
 * returns false to stop. Resolves to the file's columns (undefined for a file the school lacks).
 */
export type RecordScan = (
  visit: (record: SeenRecord) => boolean | Promise<boolean>,
) => Promise<readonly string[] | undefined>;

/** A page of a collection: how many records the query selects, and those of the page, in order. */
export interface RecordPage {
  readonly total: number;
  /** Hands the page's records to `each` in the query's order; `each` returns false to stop. */
  records(each: (record: Json) => boolean | Promise<boolean>): Promise<void>;
}

/** The fields every record may be asked for, whether or not one of them has it. */
const ALWAYS_FIELDS = ['sourcedId', 'status', 'dateLastModified', 'metadata'];

/** What a record sorts by: the first value its sort field has. */
function sortKey(record: Json, path: readonly string[]): unknown {
  return valuesAt(record, path)[0] ?? '';
}

function sortedOrder(keys: readonly unknown[], descending: boolean): number[] {
  const text = (key: unknown) => String(typeof key === 'string' ? key : JSON.stringify(key));
  const order = keys.map((_, ordinal) => ordinal);
  // Array sort is stable: records of one key keep the file's order.
  order.sort((a, b) => {
    const compared = compareValues(keys[a], text(keys[b]));
    return descending ? -compared : compared;
  });
  return order;
}

/**
 * The page a request's query asks of a collection, found without holding the collection: a first
 * pass counts the records the filter selects (keeping only their sort keys when sorted, and the
 * fields the records have when the query names some, to refuse an unknown one), a second hands
 * over the page's records (a sorted page is gathered first, at most `limit` records).
 * `blankOf(columns)` is a record of the file's columns, all empty: a field a collection's records
 * may have is known even when the caller sees none.
 */
export async function pageOf(
  scan: RecordScan,
  search: URLSearchParams,
  blankOf: (columns: readonly string[]) => Json,
): Promise<{ readonly query: RecordQuery; readonly page: RecordPage } | QueryProblem> {
  const asked = new Set<string>();
  const trial = parseQuery(search, (field) => {
    asked.add(field);
    return true;
  });
  if ('codeMinor' in trial && asked.size === 0) return trial;
  const fields = new Set(ALWAYS_FIELDS);
  const valid = 'codeMinor' in trial ? undefined : trial;
  const keys: unknown[] = [];
  let total = 0;
  const columns = await scan((seen) => {
    if (asked.size > 0) for (const field in seen()) fields.add(field);
    if (!valid || (valid.test && !valid.test(seen()))) return true;
    total += 1;
    if (valid.sort) keys.push(sortKey(seen(), valid.sort.path));
    return true;
  });
  if (asked.size > 0) {
    for (const field in blankOf(columns ?? [])) fields.add(field);
    const checked = parseQuery(search, (field) => fields.has(field));
    if ('codeMinor' in checked) return checked;
  }
  // Every field the query names exists, so it reads as the trial did.
  if (!valid) return trial as QueryProblem;
  const query = valid;
  const start = query.offset;
  const end = Math.min(total, query.offset + query.limit);
  const selects = (seen: SeenRecord) => !query.test || query.test(seen());
  const records = async (each: (record: Json) => boolean | Promise<boolean>) => {
    if (start >= end) return;
    if (!query.sort) {
      let ordinal = -1;
      await scan(async (seen) => {
        if (!selects(seen)) return true;
        ordinal += 1;
        if (ordinal < start) return true;
        return (await each(seen())) && ordinal + 1 < end;
      });
      return;
    }
    const positions = new Map(
      sortedOrder(keys, query.sort.descending)
        .slice(start, end)
        .map((ordinal, position) => [ordinal, position]),
    );
    const gathered: (Json | undefined)[] = new Array(end - start);
    let ordinal = -1;
    await scan((seen) => {
      if (!selects(seen)) return true;
      ordinal += 1;
      const position = positions.get(ordinal);
      if (position !== undefined) gathered[position] = seen();
      return true;
    });
    for (const record of gathered) if (record && !(await each(record))) return;
  };
  return { query, page: { total, records } };
}

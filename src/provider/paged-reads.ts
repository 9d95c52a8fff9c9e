import type { Scope } from '../access/scope';
import { type Json, recordMaker, type RestVersion } from '../roster/rest-records';
import { cellText, type SchoolReading } from './exported-rows';
import type { RecordPage } from './record-pages';
import { parseQuery, type RecordQuery } from './record-query';
import type { Collection } from './rostering-collections';

/**
 * The parameters a page cannot be read without the whole file for: a filter and a sort see every
 * record, and a field named in `fields` must be one some record has.
 */
const WHOLE_FILE_PARAMETERS = ['filter', 'sort', 'fields'];

/**
 * A page of users, students or teachers read from the store a page at a time, when the school's
 * copy does not hold users.csv yet: for the school's own scope (a narrower scope is decided by the
 * whole file), a list without a filter, a sort or fields (and so without the tombstones a delta
 * filter reads). The page is the one the whole file gives: the same records, in the same order,
 * and the same total. Undefined when the read needs the whole file.
 */
export async function pageFromStore(
  reading: SchoolReading,
  collection: Collection,
  segments: readonly string[],
  search: URLSearchParams,
  scope: Scope,
  version: RestVersion,
): Promise<{ readonly query: RecordQuery; readonly page: RecordPage } | undefined> {
  if (segments.length !== 1 || collection.file !== 'users' || (collection.keeps && !collection.role)) return undefined;
  if (scope.kind !== 'school' || WHOLE_FILE_PARAMETERS.some((name) => search.has(name))) return undefined;
  const query = parseQuery(search, () => true);
  if ('codeMinor' in query) return undefined;
  const pages = await reading.userPages?.();
  if (!pages) return undefined;
  const { role } = collection;
  const total = pages.total(role);
  const records = async (each: (record: Json) => boolean | Promise<boolean>) => {
    if (query.offset >= total) return;
    const columns = (await pages.columns()).map((column) => cellText(column).trim());
    const make = recordMaker(collection.file, columns, version);
    await pages.rows(role, query.offset, query.limit, (values) => each(make(values.map(cellText))));
  };
  return { query, page: { total, records } };
}

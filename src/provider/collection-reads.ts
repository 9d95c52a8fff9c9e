import type { Scope } from '../access/scope';
import { type Json, recordMaker, type RestVersion } from '../roster/rest-records';
import type { ExportedSchool } from './exported-rows';
import { GRADEBOOK, GRADEBOOK_NESTED } from './gradebook-collections';
import { NESTED, type Narrowing } from './nested-collections';
import { type QueryProblem, parseQuery, type RecordQuery, selectRecords } from './record-query';
import { type Collection, ROSTERING, rowReader, rowsOf } from './rostering-collections';
import { rowVisible, visibleTo } from './scoped-rows';

/** A service's collections and nested collections. */
export interface RestService {
  readonly collections: Readonly<Record<string, Collection>>;
  readonly nested: Readonly<Record<string, Narrowing>>;
}

export const ROSTERING_SERVICE: RestService = { collections: ROSTERING, nested: NESTED };
export const GRADEBOOK_SERVICE: RestService = { collections: GRADEBOOK, nested: GRADEBOOK_NESTED };
/** OneRoster 1.1 has one service for both, under one path (/ims/oneroster/v1p1). */
export const ONEROSTER_11_SERVICE: RestService = {
  collections: { ...ROSTERING, ...GRADEBOOK },
  nested: { ...NESTED, ...GRADEBOOK_NESTED },
};
/** The records a nested path's parent may be, of either service. */
const PARENTS: Readonly<Record<string, Collection>> = { ...ROSTERING, ...GRADEBOOK };

/**
 * A read of the rostering or gradebook service: the path's collection (or one record, or a nested collection),
 * the records the caller's scope lets it see, mapped to the binding's JSON for `version`, and the
 * query applied. A record out of the caller's scope is answered as one that does not exist.
 */
export type RosteringRead =
  | { readonly kind: 'list'; readonly key: string; readonly records: Json[]; readonly query: RecordQuery }
  | { readonly kind: 'one'; readonly key: string; readonly record: Json }
  | { readonly kind: 'unknown-path' }
  | { readonly kind: 'unknown-record'; readonly description: string }
  | ({ readonly kind: 'bad-query' } & QueryProblem);

/** The collection a path names (its first segment), to ask for its scopes before any record is read. */
export function collectionOf(service: RestService, segments: readonly string[]): Collection | undefined {
  if (segments.length === 3 && !service.nested[`${segments[0]}/${segments[2]}`]) return undefined;
  if (segments.length < 1 || segments.length > 3) return undefined;
  return service.collections[segments.length === 3 ? segments[2] : segments[0]];
}

/** The records of a collection the caller sees, mapped, narrowed by `keeps` when given. */
function visibleRecords(
  school: ExportedSchool,
  collection: Collection,
  scope: Scope,
  version: RestVersion,
  keeps?: (row: ReturnType<ReturnType<typeof rowReader>>) => boolean,
): Json[] {
  const file = school.get(collection.file);
  const read = rowReader(file);
  const make = recordMaker(collection.file, file?.columns ?? [], version);
  const visible = visibleTo(scope, school);
  const records: Json[] = [];
  for (const values of rowsOf(school, collection)) {
    const row = read(values);
    if (rowVisible(collection.file, visible, row) && (!keeps || keeps(row))) records.push(make(values));
  }
  return records;
}

function fieldsOf(records: readonly Json[]): Set<string> {
  const fields = new Set(['sourcedId', 'status', 'dateLastModified', 'metadata']);
  for (const record of records) for (const key in record) fields.add(key);
  return fields;
}

export function readCollection(
  service: RestService,
  school: ExportedSchool,
  segments: readonly string[],
  search: URLSearchParams,
  scope: Scope,
  version: RestVersion,
): RosteringRead {
  const collection = collectionOf(service, segments);
  if (!collection) return { kind: 'unknown-path' };
  if (segments.length === 2) {
    const record = visibleRecords(school, collection, scope, version, (row) => row('sourcedId') === segments[1])[0];
    if (!record) return { kind: 'unknown-record', description: `There is no ${segments[0]} record ${segments[1]}.` };
    return { kind: 'one', key: collection.singular, record };
  }
  let keeps: ((row: ReturnType<ReturnType<typeof rowReader>>) => boolean) | undefined;
  if (segments.length === 3) {
    const [parentName, parentId, childName] = segments;
    const parent = PARENTS[parentName];
    const found = visibleRecords(school, parent, scope, version, (row) => row('sourcedId') === parentId);
    if (found.length === 0)
      return { kind: 'unknown-record', description: `There is no ${parentName} record ${parentId}.` };
    keeps = service.nested[`${parentName}/${childName}`](school, parentId);
  }
  const records = visibleRecords(school, collection, scope, version, keeps);
  const columns = school.get(collection.file)?.columns ?? [];
  // The fields of a record of the file's columns, even when no record is seen: a filter on a
  // collection that is empty (for this caller) is no error.
  const fields = fieldsOf([...records, recordMaker(collection.file, columns, version)(columns.map(() => ''))]);
  const query = parseQuery(search, (field) => fields.has(field));
  if ('codeMinor' in query) return { kind: 'bad-query', ...query };
  return { kind: 'list', key: collection.plural, records: selectRecords(records, query), query };
}

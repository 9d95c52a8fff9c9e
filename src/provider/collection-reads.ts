import type { Scope } from '../access/scope';
import { type Json, recordMaker, type RestVersion } from '../roster/rest-records';
import type { SchoolReading } from './exported-rows';
import { GRADEBOOK, GRADEBOOK_NESTED, GRADEBOOK_NESTED_READS } from './gradebook-collections';
import { NESTED, NESTED_READS, type Narrowing } from './nested-collections';
import { pageFromStore } from './paged-reads';
import { pageOf, type RecordPage, type RecordScan } from './record-pages';
import type { QueryProblem, RecordQuery } from './record-query';
import { type Collection, ROSTERING, type RowReader, rowReader } from './rostering-collections';
import { readsForScope, rowVisible, type Visible, visibleTo } from './scoped-rows';
import { followedBy } from './tombstone-records';
import { inVersion } from './version-rows';

/** A service's collections and nested collections. */
export interface RestService {
  readonly collections: Readonly<Record<string, Collection>>;
  readonly nested: Readonly<Record<string, Narrowing>>;
  /** The files a nested path's narrowing reads whole. */
  readonly reads: Readonly<Record<string, readonly string[]>>;
}

export const ROSTERING_SERVICE: RestService = { collections: ROSTERING, nested: NESTED, reads: NESTED_READS };
export const GRADEBOOK_SERVICE: RestService = {
  collections: GRADEBOOK,
  nested: GRADEBOOK_NESTED,
  reads: GRADEBOOK_NESTED_READS,
};
/** OneRoster 1.1 has one service for both, under one path (/ims/oneroster/v1p1). */
export const ONEROSTER_11_SERVICE: RestService = {
  collections: { ...ROSTERING, ...GRADEBOOK },
  nested: { ...NESTED, ...GRADEBOOK_NESTED },
  reads: { ...NESTED_READS, ...GRADEBOOK_NESTED_READS },
};
/** The records a nested path's parent may be, of either service. */
const PARENTS: Readonly<Record<string, Collection>> = { ...ROSTERING, ...GRADEBOOK };

/**
 * A read of the rostering or gradebook service: the path's collection (or one record, or a nested collection),
 * the records the caller's scope lets it see, mapped to the binding's JSON for `version`, and the
 * query applied. A record out of the caller's scope is answered as one that does not exist.
 */
export type RosteringRead =
  | { readonly kind: 'list'; readonly key: string; readonly page: RecordPage; readonly query: RecordQuery }
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

/** The records of a collection the caller sees, narrowed by `keeps` when given, in the file's order. */
function visibleRecords(
  reading: SchoolReading,
  collection: Collection,
  visible: Visible,
  version: RestVersion,
  keeps?: (row: RowReader) => boolean,
): RecordScan {
  return (visit) => {
    let seenColumns: readonly string[] | undefined;
    let read = rowReader(undefined);
    let make = recordMaker(collection.file, [], version);
    return reading.scan(collection.file, (columns, values) => {
      if (columns !== seenColumns) {
        seenColumns = columns;
        read = rowReader({ columns, rows: [] });
        make = recordMaker(collection.file, columns, version);
      }
      const row = read(values);
      if (collection.keeps && !collection.keeps(row)) return true;
      if (!inVersion(collection.file, version, row)) return true;
      if (!rowVisible(collection.file, visible, row) || (keeps && !keeps(row))) return true;
      let record: Json | undefined;
      return visit(() => {
        record ??= make(values);
        return record;
      });
    });
  };
}

/** The record of a collection with this sourcedId, if the caller sees it. */
async function recordOf(
  reading: SchoolReading,
  collection: Collection,
  visible: Visible,
  version: RestVersion,
  sourcedId: string,
): Promise<Json | undefined> {
  let found: Json | undefined;
  await visibleRecords(
    reading,
    collection,
    visible,
    version,
    (row) => row('sourcedId') === sourcedId,
  )((seen) => {
    found = seen();
    return false;
  });
  return found;
}

/** A read of `segments`; a list ends with `tombstones`, the records deleted that a delta consumer is told of. */
export async function readCollection(
  service: RestService,
  reading: SchoolReading,
  segments: readonly string[],
  search: URLSearchParams,
  scope: Scope,
  version: RestVersion,
  tombstones: readonly Json[] = [],
): Promise<RosteringRead> {
  const collection = collectionOf(service, segments);
  if (!collection) return { kind: 'unknown-path' };
  const nested = segments.length === 3 ? `${segments[0]}/${segments[2]}` : undefined;
  if (tombstones.length === 0) {
    const paged = await pageFromStore(reading, collection, segments, search, scope, version);
    if (paged) return { kind: 'list', key: collection.plural, ...paged };
  }
  // Only the files a scope or a nesting is decided by are read whole; the collection is scanned.
  const school = await reading.whole([...readsForScope(scope), ...((nested && service.reads[nested]) || [])]);
  const visible = visibleTo(scope, school);
  if (segments.length === 2) {
    const record = await recordOf(reading, collection, visible, version, segments[1]);
    if (!record) return { kind: 'unknown-record', description: `There is no ${segments[0]} record ${segments[1]}.` };
    return { kind: 'one', key: collection.singular, record };
  }
  let keeps: ((row: RowReader) => boolean) | undefined;
  if (nested) {
    const [parentName, parentId] = segments;
    if (!(await recordOf(reading, PARENTS[parentName], visible, version, parentId)))
      return { kind: 'unknown-record', description: `There is no ${parentName} record ${parentId}.` };
    keeps = service.nested[nested](school, parentId);
  }
  const blankOf = (columns: readonly string[]) => recordMaker(collection.file, columns, version)(columns.map(() => ''));
  const scan = followedBy(visibleRecords(reading, collection, visible, version, keeps), tombstones);
  const selected = await pageOf(scan, search, blankOf);
  if ('codeMinor' in selected) return { kind: 'bad-query', ...selected };
  return { kind: 'list', key: collection.plural, ...selected };
}

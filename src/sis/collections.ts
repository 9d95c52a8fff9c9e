import { ONEROSTER_COLLECTIONS, type OneRosterCollectionName } from '../roster/collections/registry';

/**
 * The OneRoster collections the import reads, each with where the REST binding serves it (the
 * rostering or the gradebook service) and the columns of the matching CSV file of the OneRoster
 * CSV binding, as its module (src/roster/collections/) names them. The REST reader writes each
 * record as a row of those columns (the module's `fromRest`), so that the import reads a sync
 * exactly as it reads an exported bundle. The key of a collection's records in a JSON answer is
 * its name.
 */
export type CollectionName = OneRosterCollectionName;

export interface Collection {
  readonly name: CollectionName;
  readonly service: 'rostering' | 'gradebook';
  /** The CSV columns every file has, whether or not a record fills them (the import checks the header). */
  readonly columns: readonly string[];
}

/** In the order the import reads them; results, the largest, last. */
export const COLLECTIONS: readonly Collection[] = ONEROSTER_COLLECTIONS;

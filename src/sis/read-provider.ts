import { counted } from '../lib/counted';
import type { SisSettings } from '../config/sis-settings';
import { collectionPages } from './collection-reader';
import { COLLECTIONS, type CollectionName } from './collections';
import { restRoleRows, restRowOf, type Row } from '../roster/collections/rest-rows';
import { pageRecords } from './page-records';
import type { ProviderClient } from './provider-client';
import { type HeldRecords, schoolFilter } from './school-filter';
import type { FileName, SpooledBundle } from './spooled-bundle';
import { SyncFailure } from './sync-failure';

/**
 * Reads every collection the import uses from the provider into the spooled bundle, page by page,
 * in the order the import reads them, each record turned into its CSV row. `progress` hears of
 * each page's files as they grow and of each collection once it is whole, so that the import can
 * read them meanwhile. Fails when the records pass SIS_MAX_RECORDS. Returns the records read, and
 * the results sent (when `keepResults`: a delta whose new marks may be notified) and their lineItems.
 */
export interface ReadProgress {
  /** Bytes written so far to a file, and whether records added columns after its header. */
  grown(name: FileName, bytes: number, grew: boolean): void;
  /** The file is whole on disk. */
  whole(name: FileName, bytes: number): void;
}

export interface ProviderRead {
  readonly records: number;
  readonly markedLineItems: string[];
  readonly results: string[];
}

export async function readProvider(
  client: ProviderClient,
  settings: SisSettings,
  spool: SpooledBundle,
  since: string | undefined,
  progress: ReadProgress,
  keepResults: boolean,
  /** A delta with SIS_SCHOOL: this school's records the store holds, which the delta's rows may name. */
  held?: HeldRecords,
): Promise<ProviderRead> {
  // A bulk sync hands every school to the import, whose --school chooses (a teacher of two schools
  // keeps both orgs); a delta carries too few orgs for the import to tell schools apart: filtered here.
  const inSchool =
    since && settings.school
      ? schoolFilter(settings.school, await otherSchools(client, settings, settings.school), held)
      : undefined;
  let records = 0;
  const markedLineItems = new Set<string>();
  const results: string[] = [];
  const rowsOf = (name: CollectionName, page: readonly unknown[]) => {
    const rows: Row[] = [];
    for (const record of page) {
      const row = restRowOf(name, record);
      if (!row || (inSchool && !inSchool(name, row))) continue;
      rows.push(row);
      if (keepResults && name === 'results' && row.status !== 'tobedeleted') {
        markedLineItems.add(row.lineItemSourcedId);
        results.push(row.sourcedId);
      }
    }
    return rows;
  };
  const told = (name: FileName) => {
    const state = spool.state(name);
    progress.grown(name, state.bytes, state.grew);
  };
  for (const collection of COLLECTIONS) {
    let pages = 0;
    const take = async (text: string, url: string) => {
      pages += 1;
      const page = pageRecords(text, collection.name, url);
      const rows = rowsOf(collection.name, page);
      if (spool.add(collection.name, rows) === 0 && rows.length > 0) throw repeatedPage(collection.name, pages, url);
      told(collection.name);
      if (collection.name === 'users' && settings.version === '1.2') {
        spool.add('roles', userRoles(page, rows));
        told('roles');
      }
      return page.length;
    };
    for await (const count of collectionPages(client, settings, collection, since, take)) {
      records += count;
      if (records > settings.maxRecords) {
        throw new SyncFailure(
          `the provider sent more than ${counted(settings.maxRecords, 'record')} (SIS_MAX_RECORDS)`,
        );
      }
    }
    progress.whole(collection.name, await spool.end(collection.name));
  }
  return { records, markedLineItems: [...markedLineItems], results };
}

/**
 * A page whose every record was read already: a provider whose next page goes back over pages
 * read, under a URL of its own each time (a query that changes), would be followed without end.
 */
function repeatedPage(collection: CollectionName, page: number, url: string): SyncFailure {
  const at = new URL(url);
  const offset = at.searchParams.get('offset');
  return new SyncFailure(
    `${collection}: page ${page} (${at.pathname}${offset === null ? '' : `, offset ${offset}`}) holds only ` +
      "records already read: the provider's next page goes back over pages read; stopped",
  );
}

/** The rows of roles.csv of a 1.2 page of users: the roles of the users kept. */
function userRoles(page: readonly unknown[], kept: readonly Row[]): Row[] {
  const ids = new Set(kept.map((row) => row.sourcedId));
  return page
    .filter((record) => typeof record === 'object' && record !== null && ids.has((record as Row).sourcedId))
    .flatMap(restRoleRows);
}

/**
 * The provider's schools other than ours, from its whole orgs collection (a few rows: a district's
 * schools), so that a delta can tell a record of another school although it carries no org.
 */
async function otherSchools(client: ProviderClient, settings: SisSettings, school: string): Promise<Set<string>> {
  const orgs = COLLECTIONS.find((collection) => collection.name === 'orgs');
  const others = new Set<string>();
  if (!orgs) return others;
  const take = async (text: string, url: string) => {
    const records = pageRecords(text, 'orgs', url);
    for (const record of records) {
      const row = restRowOf('orgs', record);
      if (row && row.type === 'school' && row.sourcedId !== school) others.add(row.sourcedId);
    }
    return records.length;
  };
  for await (const count of collectionPages(client, settings, orgs, undefined, take)) void count;
  return others;
}

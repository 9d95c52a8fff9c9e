import { counted } from '../lib/counted';
import type { SisSettings } from '../config/sis-settings';
import { collectionPages } from './collection-reader';
import { COLLECTIONS } from './collections';
import { type Row, roleRows, rowOf } from './json-rows';
import type { ProviderClient } from './provider-client';
import { schoolFilter } from './school-filter';
import type { SpooledBundle } from './spooled-bundle';
import { SyncFailure } from './sync-failure';

/**
 * Reads every collection the import uses from the provider into the spooled bundle, page by page,
 * each record turned into its CSV row. Fails when the records pass SIS_MAX_RECORDS. Returns the
 * results sent (when `keepResults`: a delta whose new marks may be notified) and their lineItems.
 */
export async function readProvider(
  client: ProviderClient,
  settings: SisSettings,
  spool: SpooledBundle,
  since: string | undefined,
  stillHeld: () => Promise<void>,
  keepResults: boolean,
): Promise<{ records: number; markedLineItems: Set<string>; results: string[] }> {
  // A bulk sync hands every school to the import, whose --school chooses (a teacher of two schools
  // keeps both orgs); a delta carries too few orgs for the import to tell schools apart: filtered here.
  const inSchool =
    since && settings.school
      ? schoolFilter(settings.school, await otherSchools(client, settings, settings.school))
      : undefined;
  let records = 0;
  const markedLineItems = new Set<string>();
  const results: string[] = [];
  for (const collection of COLLECTIONS) {
    for await (const page of collectionPages(client, settings, collection, since)) {
      await stillHeld();
      records += page.length;
      if (records > settings.maxRecords) {
        throw new SyncFailure(
          `the provider sent more than ${counted(settings.maxRecords, 'record')} (SIS_MAX_RECORDS)`,
        );
      }
      const rows: Row[] = [];
      for (const record of page) {
        const row = rowOf(collection.name, record);
        if (!row || (inSchool && !inSchool(collection.name, row))) continue;
        rows.push(row);
        if (keepResults && collection.name === 'results' && row.status !== 'tobedeleted') {
          markedLineItems.add(row.lineItemSourcedId);
          results.push(row.sourcedId);
        }
      }
      await spool.add(collection.name, rows);
      if (collection.name === 'users' && settings.version === '1.2') {
        const kept = new Set(rows.map((row) => row.sourcedId));
        const users = page.filter(
          (record) => typeof record === 'object' && record !== null && kept.has((record as Row).sourcedId),
        );
        await spool.add(
          'roles',
          users.flatMap((record) => roleRows(record as never)),
        );
      }
    }
  }
  return { records, markedLineItems, results };
}

/**
 * The provider's schools other than ours, from its whole orgs collection (a few rows: a district's
 * schools), so that a delta can tell a record of another school although it carries no org.
 */
async function otherSchools(client: ProviderClient, settings: SisSettings, school: string): Promise<Set<string>> {
  const orgs = COLLECTIONS.find((collection) => collection.name === 'orgs');
  const others = new Set<string>();
  if (!orgs) return others;
  for await (const page of collectionPages(client, settings, orgs, undefined)) {
    for (const record of page) {
      const row = rowOf('orgs', record);
      if (row && row.type === 'school' && row.sourcedId !== school) others.add(row.sourcedId);
    }
  }
  return others;
}

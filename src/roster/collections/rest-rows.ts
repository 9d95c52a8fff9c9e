import { ONEROSTER_COLLECTIONS, type OneRosterCollectionName } from './registry';
import { isObject, type Row } from './rest-cells';
import { rolesFromRest } from './roles';

/**
 * The CSV row of a REST record of a collection (each module's `fromRest`), or undefined for an
 * answer entry that is no record (no sourcedId). A 1.2 user's roles are rows of roles.csv as well.
 */
export function restRowOf(collection: OneRosterCollectionName, record: unknown): Row | undefined {
  if (!isObject(record) || typeof record.sourcedId !== 'string' || record.sourcedId === '') return undefined;
  const found = ONEROSTER_COLLECTIONS.find((candidate) => candidate.name === collection);
  return found?.fromRest(record);
}

/** The rows of roles.csv a 1.2 REST user gives. */
export function restRoleRows(record: unknown): Row[] {
  return isObject(record) ? rolesFromRest(record) : [];
}

export type { Row } from './rest-cells';

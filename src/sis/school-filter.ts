import type { CollectionName } from './collections';
import type { Row } from '../roster/collections/rest-rows';

/**
 * SIS_SCHOOL (or --school) in a delta sync: a provider that serves a district holds several
 * schools, and the store holds one. A bulk sync hands every school to the import, whose own
 * --school chooses; a delta carries only the orgs that changed, too few for the import to tell the
 * schools apart, so the records of the other schools are left out here as they are read: their orgs, their
 * courses and classes, the enrollments, lineItems and results of those classes, and the users
 * (with their demographics) whose orgs name another school and not this one. District orgs,
 * sessions and categories are shared and kept. A tobedeleted record is always kept: deleting what
 * the store does not hold changes nothing.
 *
 * A changed mark comes without its lineItem, an enrolment without its class, a demographics row
 * without its user: what they name is this school's when the delta brings it as this school's, or
 * when the store already holds it (the store holds this school alone).
 */
export type SchoolFilter = (collection: CollectionName, row: Row) => boolean;

/** The sourcedIds of this school's records the store holds, by what a delta's rows may name. */
export interface HeldRecords {
  readonly classes: Iterable<string>;
  readonly lineItems: Iterable<string>;
  readonly users: Iterable<string>;
}

const NONE_HELD: HeldRecords = { classes: [], lineItems: [], users: [] };

export function schoolFilter(
  school: string | undefined,
  /** The provider's other schools, from its whole orgs collection (a delta's orgs are only those that changed). */
  knownOtherSchools: Iterable<string> = [],
  held: HeldRecords = NONE_HELD,
): SchoolFilter | undefined {
  if (school === undefined) return undefined;
  const otherSchools = new Set<string>(knownOtherSchools);
  const classes = new Set<string>(held.classes);
  const lineItems = new Set<string>(held.lineItems);
  const users = new Set<string>(held.users);
  const ours = (org: string) => !otherSchools.has(org);
  const keep: Record<CollectionName, (row: Row) => boolean> = {
    orgs: (row) => {
      if (row.type !== 'school' || row.sourcedId === school) return true;
      otherSchools.add(row.sourcedId);
      return false;
    },
    academicSessions: () => true,
    courses: (row) => ours(row.orgSourcedId ?? ''),
    classes: (row) => (row.schoolSourcedId === school ? classes.add(row.sourcedId) !== undefined : false),
    users: (row) => {
      const orgs = (row.orgSourcedIds ?? '').split(',').filter(Boolean);
      const kept = orgs.includes(school) || !orgs.some((org) => otherSchools.has(org));
      if (!kept) return false;
      // A teacher of two schools keeps both, as the SIS gives them: the import (--school) takes an
      // org the delta does not bring for another school's.
      users.add(row.sourcedId);
      return true;
    },
    enrollments: (row) => classes.has(row.classSourcedId ?? ''),
    demographics: (row) => users.has(row.sourcedId),
    categories: () => true,
    lineItems: (row) => (classes.has(row.classSourcedId ?? '') ? lineItems.add(row.sourcedId) !== undefined : false),
    results: (row) => lineItems.has(row.lineItemSourcedId ?? ''),
  };
  return (collection, row) => row.status === 'tobedeleted' || keep[collection](row);
}

import { ONEROSTER_COLUMNS, type OneRosterFile } from '../roster/oneroster-columns';

/**
 * The OneRoster collections the import reads, each with where the REST binding serves it (the
 * rostering or the gradebook service), the key of its records in the JSON answer, and the columns
 * of the matching CSV file of the OneRoster CSV binding. The REST reader writes each record as a
 * row of those columns, so that the import reads a sync exactly as it reads an exported bundle.
 */
export type CollectionName = OneRosterFile;

export interface Collection {
  readonly name: CollectionName;
  readonly service: 'rostering' | 'gradebook';
  /** The CSV columns every file has, whether or not a record fills them (the import checks the header). */
  readonly columns: readonly string[];
}

/** In the order the import reads them; results, the largest, last. */
export const COLLECTIONS: readonly Collection[] = [
  { name: 'orgs', service: 'rostering', columns: ONEROSTER_COLUMNS.orgs },
  { name: 'academicSessions', service: 'rostering', columns: ONEROSTER_COLUMNS.academicSessions },
  { name: 'courses', service: 'rostering', columns: ONEROSTER_COLUMNS.courses },
  { name: 'classes', service: 'rostering', columns: ONEROSTER_COLUMNS.classes },
  { name: 'users', service: 'rostering', columns: ONEROSTER_COLUMNS.users },
  { name: 'enrollments', service: 'rostering', columns: ONEROSTER_COLUMNS.enrollments },
  { name: 'demographics', service: 'rostering', columns: ONEROSTER_COLUMNS.demographics },
  { name: 'categories', service: 'gradebook', columns: ONEROSTER_COLUMNS.categories },
  { name: 'lineItems', service: 'gradebook', columns: ONEROSTER_COLUMNS.lineItems },
  { name: 'results', service: 'gradebook', columns: ONEROSTER_COLUMNS.results },
];

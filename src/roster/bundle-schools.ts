import { type BundleLimits, NO_BUNDLE_LIMITS } from './bundle-limits';
import { BundleError, openBundle } from './bundle-source';
import { openCsv } from './csv-file';

/** An org of type school in a bundle, as a district's import names it. */
export interface BundledSchool {
  readonly sourcedId: string;
  readonly name: string;
  readonly identifier: string;
}

/** More schools than a deployment serves is no district bundle (a bound on what is kept of orgs.csv). */
const MOST_SCHOOLS = 10_000;

/**
 * The schools of a bundle (its orgs of type school, by orgs.csv), read before anything else of it:
 * a district's import (`import --all-schools`) then imports each into its own store, where the
 * import checks every row as it always does. A row that names no sourcedId is passed over here.
 */
export async function bundleSchools(path: string, limits: BundleLimits = NO_BUNDLE_LIMITS): Promise<BundledSchool[]> {
  const bundle = await openBundle(path, limits);
  try {
    const name = bundle.find('orgs.csv');
    if (name === undefined) throw new BundleError(`${path}: the bundle has no orgs.csv`);
    const orgs = await openCsv(bundle, name);
    const column = (header: string) => orgs.header.get(header.toLowerCase());
    const [sourcedId, schoolName, type, identifier] = ['sourcedId', 'name', 'type', 'identifier'].map(column);
    if (sourcedId === undefined || type === undefined) {
      throw new BundleError(`${path}: orgs.csv has no sourcedId or type column`);
    }
    const schools: BundledSchool[] = [];
    for await (const row of orgs.rows) {
      const cell = (index: number | undefined) => (index === undefined ? '' : (row.values[index] ?? '').trim());
      if (cell(type).toLowerCase() !== 'school' || cell(sourcedId) === '') continue;
      if (schools.length === MOST_SCHOOLS) throw new BundleError(`${path}: more than ${MOST_SCHOOLS} schools`);
      schools.push({ sourcedId: cell(sourcedId), name: cell(schoolName), identifier: cell(identifier) });
    }
    return schools;
  } finally {
    await bundle.close();
  }
}

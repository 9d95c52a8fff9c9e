import type { ImportConnection } from '../store/roster/import-connection';
import { keptWholeSourcedIds, ledgeredSourcedIds, unledgeredIds } from '../store/queries/roster-pages';
import { NAMED_TABLES, ONEROSTER_12_COLLECTIONS, ONEROSTER_COLLECTIONS } from './collections/registry';
import { SchoolSnapshot } from './school-snapshot';
import { generatedIdOf } from './sourced-ids';

/** The files whose rows kept whole are records an export gives back, and so may be named. */
const KEPT_FILES = [...ONEROSTER_COLLECTIONS, ...ONEROSTER_12_COLLECTIONS].map(({ name }) => `${name}.csv`);

/**
 * Of `names`, the sourcedIds an export knows, looked up one by one rather than read whole: the
 * records of the tables rows name (by the ledger's sourcedId, or the one made up for a record
 * without), and the rows kept whole. The same set, restricted to `names`, as the one the export
 * gives back kept lists by (giving-back.ts): a kept list naming a record the school no longer has
 * comes back without it, on a page as in the whole file. `stored`: sourcedIds of records the
 * caller has just read from the store, known without a look-up.
 */
export async function knownNames(
  connection: ImportConnection,
  names: Iterable<string>,
  stored: ReadonlySet<string> = new Set(),
): Promise<Set<string>> {
  const wanted = [...new Set(names)].filter((name) => name !== '' && !stored.has(name));
  const known = await ledgeredSourcedIds(connection, NAMED_TABLES, wanted);
  for (const name of stored) known.add(name);
  const unknown = () => wanted.filter((name) => !known.has(name));
  if (unknown().length > 0)
    for (const name of await keptWholeSourcedIds(connection, KEPT_FILES, unknown())) known.add(name);
  for (const table of NAMED_TABLES) {
    const rest = unknown();
    if (rest.length === 0) return known;
    if (table === 'grade_levels') {
      // A grade level without a sourcedId is named by its code: the few of them are read whole.
      const school = new SchoolSnapshot(connection);
      for (const row of await school.load('grade_levels')) known.add(school.sourcedIdOf('grade_levels', row));
      continue;
    }
    const ids = new Map<number, string>();
    for (const name of rest) {
      const id = generatedIdOf(table, name);
      if (id !== undefined) ids.set(id, name);
    }
    if (ids.size === 0) continue;
    for (const id of await unledgeredIds(connection, table, [...ids.keys()])) known.add(ids.get(id) ?? '');
  }
  return known;
}

import type { Scope } from '../access/scope';
import type { Json } from '../roster/rest-records';
import type { Store } from '../store/open-store';
import { pruneTombstones, tombstonesSince } from '../store/roster/tombstones';
import type { RecordScan } from './record-pages';

/**
 * The records an import, a sync, an erasure or a consumer's DELETE deleted, as a delta consumer
 * reads them: a list whose filter names dateLastModified (`filter=dateLastModified>'…'`) ends with
 * a record `{sourcedId, status: "tobedeleted", dateLastModified}` for each record of the collection
 * deleted within the last ONEROSTER_TOMBSTONE_DAYS, and nothing else of it (an erased child's name
 * or birth date is nowhere to read). The filter, paging and sorting apply to them as to every
 * record. Only the school's scope reads them: whether a record that is gone was in a teacher's
 * classes cannot be told any more. A record itself still answers 404.
 */
const DAY_MS = 86_400_000;
/** Tombstones past their days are deleted at most this often, by a process serving delta reads. */
const PRUNE_EVERY_MS = 3_600_000;

/** The store tables (the ledger's kinds) whose deleted records each collection answers. */
const KINDS: Readonly<Record<string, readonly string[]>> = {
  orgs: ['schools'],
  schools: ['schools'],
  academicSessions: ['academic_years', 'terms'],
  terms: ['terms'],
  courses: ['subjects'],
  classes: ['classes', 'class_subjects'],
  users: ['students', 'teachers', 'guardians'],
  students: ['students'],
  teachers: ['teachers'],
  enrollments: ['student_records', 'teacher_assignments'],
  demographics: ['students'],
  categories: ['assessment_categories'],
  lineItems: ['assessments'],
  results: ['marks'],
};

const lastPruned = new WeakMap<Store, number>();

/** Whether a list's query reads changes: its filter names dateLastModified. */
function readsChanges(search: URLSearchParams): boolean {
  return (search.get('filter') ?? '').includes('dateLastModified');
}

/** The tobedeleted records a list of `collection` (a path's first segment) ends with; none for most reads. */
export async function tombstoneRecords(
  parts: { readonly store: Store; readonly tombstoneDays: number; readonly clock: () => Date },
  collection: string,
  scope: Scope,
  search: URLSearchParams,
): Promise<Json[]> {
  const kinds = KINDS[collection];
  if (!kinds || scope.kind !== 'school' || !readsChanges(search)) return [];
  const now = parts.clock().getTime();
  const since = new Date(now - parts.tombstoneDays * DAY_MS).toISOString();
  if (now - (lastPruned.get(parts.store) ?? 0) >= PRUNE_EVERY_MS) {
    lastPruned.set(parts.store, now);
    await pruneTombstones(parts.store, since);
  }
  const tombstones = await tombstonesSince(parts.store, kinds, since);
  return tombstones.map((tombstone) => ({
    sourcedId: tombstone.sourcedId,
    status: 'tobedeleted',
    dateLastModified: tombstone.deletedAt,
  }));
}

/** A scan of a collection's records followed by `records` (its tombstones), unless it was stopped. */
export function followedBy(scan: RecordScan, records: readonly Json[]): RecordScan {
  if (records.length === 0) return scan;
  return async (visit) => {
    let stopped = false;
    const columns = await scan(async (seen) => {
      const more = await visit(seen);
      if (!more) stopped = true;
      return more;
    });
    for (const record of records) {
      if (stopped || !(await visit(() => record))) break;
    }
    return columns;
  };
}

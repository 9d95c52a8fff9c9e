import { sql } from 'kysely';
import type { SisSyncRunTable } from '../schema';
import type { Session } from '../session';
import { CLASS_ALIASES } from '../roster/ledger';

/** The sync's lease, progress and runs (see migration 012). */

/**
 * Takes the lease when nobody holds it, its holder's time ran out, or `holder` holds it already
 * (a renewal). One UPDATE decides, so of two nodes asking at once one gets it, on either engine.
 */
export async function takeSyncLease({ db }: Session, holder: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('sis_sync_state')
    .set({ lease_holder: holder, lease_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('id', '=', 1)
    .where((where) =>
      where.or([
        where('lease_holder', 'is', null),
        where('lease_until', '<', now.toISOString()),
        where('lease_holder', '=', holder),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseSyncLease({ db }: Session, holder: string): Promise<void> {
  await db
    .updateTable('sis_sync_state')
    .set({ lease_holder: null, lease_until: null })
    .where('id', '=', 1)
    .where('lease_holder', '=', holder)
    .execute();
}

/** Who holds the lease, if anyone holds it now. */
export async function syncLeaseHolder({ db }: Session, now: Date): Promise<string | undefined> {
  const row = await db
    .selectFrom('sis_sync_state')
    .select(['lease_holder', 'lease_until'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.lease_holder && row.lease_until && row.lease_until >= now.toISOString() ? row.lease_holder : undefined;
}

/** The time the last successful sync's data was current at: the next delta asks for changes after it. */
export async function syncedUntil({ db }: Session): Promise<string | undefined> {
  const row = await db.selectFrom('sis_sync_state').select('synced_until').where('id', '=', 1).executeTakeFirst();
  return row?.synced_until ?? undefined;
}

/** Records a sync; a successful one moves the point the next delta starts from. */
export async function recordSyncRun(
  { db }: Session,
  run: SisSyncRunTable,
  syncedAsOf: string | undefined,
): Promise<void> {
  await db.insertInto('sis_sync_runs').values(run).execute();
  if (syncedAsOf !== undefined) {
    await db.updateTable('sis_sync_state').set({ synced_until: syncedAsOf }).where('id', '=', 1).execute();
  }
  // The last hundred runs are enough for any page; older ones go.
  const kept = sql`select started_at from sis_sync_runs order by started_at desc limit 100`;
  await sql`delete from sis_sync_runs where started_at < (select min(started_at) from (${kept}) as kept)`.execute(db);
}

export async function lastSyncRun({ db }: Session): Promise<SisSyncRunTable | undefined> {
  return db.selectFrom('sis_sync_runs').selectAll().orderBy('started_at', 'desc').limit(1).executeTakeFirst();
}

/** The assessments (lineItems) of the given sourcedIds, with their class: where a sync's new marks are. */
export async function assessmentsBySourcedId(
  { db }: Session,
  sourcedIds: readonly string[],
): Promise<Array<{ assessmentId: number; classId: number }>> {
  const found: Array<{ assessmentId: number; classId: number }> = [];
  for (let start = 0; start < sourcedIds.length; start += 500) {
    const rows = await db
      .selectFrom('roster_ids')
      .innerJoin('assessments', 'assessments.id', 'roster_ids.id')
      .select(['assessments.id as assessmentId', 'assessments.class_id as classId'])
      .where('roster_ids.kind', '=', 'assessments')
      .where('roster_ids.sourced_id', 'in', sourcedIds.slice(start, start + 500))
      .execute();
    for (const row of rows) found.push({ assessmentId: Number(row.assessmentId), classId: Number(row.classId) });
  }
  return found;
}

/** The ids of the marks (results) of the given sourcedIds. */
export async function markIdsBySourcedId({ db }: Session, sourcedIds: readonly string[]): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let start = 0; start < sourcedIds.length; start += 500) {
    const rows = await db
      .selectFrom('roster_ids')
      .select('id')
      .where('kind', '=', 'marks')
      .where('sourced_id', 'in', sourcedIds.slice(start, start + 500))
      .execute();
    for (const row of rows) ids.add(Number(row.id));
  }
  return ids;
}

/** The sourcedIds the ledger holds of the given kinds (tables): the records a store already has. */
/**
 * The sourcedIds of the classes the store holds: homerooms and sections, scheduled classes, and the
 * other names of a scheduled class (a second class of one subject in one section is the first).
 */
export function heldClassSourcedIds(session: Session): Promise<string[]> {
  return heldSourcedIds(session, ['classes', 'class_subjects', CLASS_ALIASES]);
}

export async function heldSourcedIds({ db }: Session, kinds: readonly string[]): Promise<string[]> {
  if (kinds.length === 0) return [];
  const rows = await db.selectFrom('roster_ids').select('sourced_id').where('kind', 'in', kinds).execute();
  return rows.map((row) => row.sourced_id);
}

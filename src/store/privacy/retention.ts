import { log } from '../../lib/log';
import type { Store } from '../open-store';
import type { Session } from '../session';
import { eraseFromStoreFiles } from './erase-from-files';
import { planErasure } from './subject-erasure';

export interface Leaver {
  readonly studentId: number;
  readonly leftOn: string;
}

export interface RetentionSettings {
  /** Days after leaving before a student is erased; undefined: never. */
  readonly afterLeavingDays: number | undefined;
  readonly defaultCountryCode: string;
}

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Notes, as of `today`, the students who have left (no active enrolment: withdrawn, or their
 * enrolments deleted) and forgets those enrolled again; the day a student was first seen to have
 * left is kept, as imports and syncs do not say when.
 */
export async function noteLeavers({ db }: Session, today: string): Promise<void> {
  const active = db.selectFrom('student_records').select('student_id').where('status', '=', 'active');
  await db.deleteFrom('students_left').where('student_id', 'in', active).execute();
  await db
    .insertInto('students_left')
    .columns(['student_id', 'left_on'])
    .expression(
      db
        .selectFrom('students')
        .select(['id', (eb) => eb.val(today).as('left_on')])
        .where('id', 'not in', active)
        .where('id', 'not in', db.selectFrom('students_left').select('student_id')),
    )
    .execute();
}

/** The students who left `days` or more days before `today`, oldest first. */
export async function leaversDue({ db }: Session, today: string, days: number): Promise<Leaver[]> {
  const rows = await db
    .selectFrom('students_left')
    .select(['student_id', 'left_on'])
    .where('left_on', '<=', daysBefore(today, days))
    .orderBy('left_on')
    .orderBy('student_id')
    .execute();
  return rows.map((row) => ({ studentId: row.student_id, leftOn: row.left_on }));
}

/** Takes the day's run for this node; false when another process took it already. */
export async function claimRetentionDay({ db }: Session, day: string, node: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('retention_runs')
    .values({ day, node, started_at: at, erased: 0 })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** How many students the retention has erased, all days together: the status page's figure. */
export async function erasedByRetention({ db }: Session): Promise<number> {
  const row = await db
    .selectFrom('retention_runs')
    .select((eb) => eb.fn.sum<number>('erased').as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Erases each student due, as `subject erase` does, with `retention` as who erased and the day they
 * left as the reason; logs how many, never who. Returns the students erased.
 */
export async function eraseLeaversDue(store: Store, settings: RetentionSettings, now: Date, day?: string) {
  const today = now.toISOString().slice(0, 10);
  if (settings.afterLeavingDays === undefined) return [];
  await noteLeavers(store, today);
  const due = await leaversDue(store, today, settings.afterLeavingDays);
  const erased: Leaver[] = [];
  for (const leaver of due) {
    const plan = await planErasure(store, 'student', leaver.studentId, settings.defaultCountryCode);
    if (!plan) continue;
    const reason = `retention: left on ${leaver.leftOn}, ${settings.afterLeavingDays} days after leaving`;
    await eraseFromStoreFiles(store, plan, { at: now.toISOString(), erasedBy: 'retention', reason });
    erased.push(leaver);
    // Counted as it goes, so that the status page shows a long run's progress.
    if (day !== undefined) {
      await store.db.updateTable('retention_runs').set({ erased: erased.length }).where('day', '=', day).execute();
    }
  }
  log.info('retention after leaving ran', { erased: erased.length, afterLeavingDays: settings.afterLeavingDays });
  return erased;
}

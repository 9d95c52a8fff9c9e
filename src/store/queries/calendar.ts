import type { Session } from '../session';

/**
 * "Current" as the product defines it: the academic year and term in force on a given day
 * according to the store. Between terms (or years) the one that ended last counts; before the
 * first one, the first.
 */
export async function currentAcademicYearId(session: Session, today: string): Promise<number | undefined> {
  const { db } = session;
  const started = await db
    .selectFrom('academic_years')
    .select('id')
    .where('starts_on', '<=', today)
    .orderBy('starts_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (started) return started.id;
  const first = await db.selectFrom('academic_years').select('id').orderBy('starts_on').limit(1).executeTakeFirst();
  return first?.id;
}

export async function currentTermId(session: Session, today: string): Promise<number | undefined> {
  const { db } = session;
  const started = await db
    .selectFrom('terms')
    .select('id')
    .where('starts_on', '<=', today)
    .orderBy('starts_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (started) return started.id;
  const first = await db.selectFrom('terms').select('id').orderBy('starts_on').limit(1).executeTakeFirst();
  return first?.id;
}

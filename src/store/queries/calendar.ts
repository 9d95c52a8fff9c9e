import type { Session } from '../session';
import { academicYearStarts, type Dated, termStarts } from './reference';

/**
 * "Current" as the product defines it: the academic year or term in force on a given day
 * according to the store, that is the latest started; between two, the one that ended last;
 * before the first, the first. `dated` is in order of start.
 */
export function currentOf(dated: readonly Dated[], today: string): number | undefined {
  let found = dated[0];
  for (const entry of dated) {
    if (entry.startsOn > today) break;
    found = entry;
  }
  return found?.id;
}

/** From the store's kept copy when the session has one (the service's), else from the tables. */
export async function currentAcademicYearId(session: Session, today: string): Promise<number | undefined> {
  if (session.reference) return session.reference.currentAcademicYearId(today);
  return currentOf(await academicYearStarts(session), today);
}

export async function currentTermId(session: Session, today: string): Promise<number | undefined> {
  if (session.reference) return session.reference.currentTermId(today);
  return currentOf(await termStarts(session), today);
}

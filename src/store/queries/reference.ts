import type { NoteType } from '../../contract/operation-types';
import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';

/**
 * The reference tables read whole, for the copy every process keeps (store/reference-data.ts),
 * and the version that tells whether that copy is current.
 */

export interface Dated {
  readonly id: number;
  readonly startsOn: string;
}

const versionQuery = compiledQuery((db) => db.selectFrom('reference_versions').select('version').where('id', '=', 1));

export async function referenceVersion(session: Session): Promise<number> {
  const [row] = await versionQuery(session, {});
  return row?.version ?? 0;
}

/** Terms by start, earliest first. */
export async function termStarts({ db }: Session): Promise<Dated[]> {
  return db.selectFrom('terms').select(['id', 'starts_on as startsOn']).orderBy('starts_on').orderBy('id').execute();
}

export async function allNoteTypes({ db }: Session): Promise<NoteType[]> {
  const rows = await db
    .selectFrom('note_types')
    .select(['id as noteTypeId', 'name_ar as nameAr', 'name_en as nameEn', 'is_positive as isPositive'])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, isPositive: row.isPositive === 1 }));
}

/** Each absence type's Arabic name by its id. */
export async function absenceTypeNames({ db }: Session): Promise<Map<number, string>> {
  const rows = await db.selectFrom('absence_types').select(['id', 'name_ar']).execute();
  return new Map(rows.map((row) => [row.id, row.name_ar]));
}

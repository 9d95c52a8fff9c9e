import type { Insertable, Selectable } from 'kysely';
import type { CallerTable } from '../schema';
import type { Session } from '../session';

/** The callers the operator let in, as stored. */

export type CallerRow = Selectable<CallerTable>;
export type NewCallerRow = Omit<Insertable<CallerTable>, 'id'>;

/** Every caller, revoked ones included, by name. */
export async function allCallers({ db }: Session): Promise<CallerRow[]> {
  return db.selectFrom('callers').selectAll().orderBy('name').execute();
}

/** What changes whenever a caller is added, changed or removed: processes compare it to know when to reload. */
export async function callersSignature({ db }: Session): Promise<string> {
  const row = await db
    .selectFrom('callers')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('changed_at').as('changed')])
    .executeTakeFirstOrThrow();
  return `${Number(row.count)} ${row.changed ?? ''}`;
}

export async function callerNamed({ db }: Session, name: string): Promise<CallerRow | undefined> {
  return db.selectFrom('callers').selectAll().where('name', '=', name).executeTakeFirst();
}

/** Adds a caller; a revoked caller of the same name is removed first, so that a name can be used again. */
export async function insertCaller(session: Session, caller: NewCallerRow): Promise<void> {
  await session.db.deleteFrom('callers').where('name', '=', caller.name).where('revoked_at', 'is not', null).execute();
  await session.db.insertInto('callers').values(caller).execute();
}

/** Changes an active caller; false when there is none of that name. */
export async function updateActiveCaller(
  { db }: Session,
  name: string,
  changes: Partial<Omit<NewCallerRow, 'name' | 'created_at'>> & { changed_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('callers')
    .set(changes)
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the callers revoked before `before`: they have left the list the operator reads. */
export async function pruneRevokedCallers({ db }: Session, before: string): Promise<number> {
  const result = await db.deleteFrom('callers').where('revoked_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the store holds the teacher, guardian or student a scope names. */
export async function scopeSubjectExists(
  { db }: Session,
  kind: 'teacher' | 'guardian' | 'student',
  id: number,
): Promise<boolean> {
  const table = ({ teacher: 'teachers', guardian: 'guardians', student: 'students' } as const)[kind];
  const row = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

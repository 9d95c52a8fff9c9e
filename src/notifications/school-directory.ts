import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../store/schema';

/** Whether a phone number (E.164) belongs to someone in the school: a guardian, a student or a teacher. */
export async function isDirectoryPhone(db: Kysely<Database> | Transaction<Database>, phone: string): Promise<boolean> {
  const found = await db
    .selectFrom('guardians')
    .select('id')
    .where('phone', '=', phone)
    .unionAll(db.selectFrom('students').select('id').where('phone', '=', phone))
    .unionAll(db.selectFrom('teachers').select('id').where('phone', '=', phone))
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

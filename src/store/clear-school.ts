import type { Database } from './schema';
import { SCHOOL_TABLES } from './roster/school-tables';
import type { Session } from './session';

/** The service's rows that point into the school, then the school children first, then the ledger of its ids. */
const TABLES_CHILDREN_FIRST: ReadonlyArray<keyof Database> = [
  'outbox_messages',
  'rate_limit_events',
  'generated_documents',
  ...SCHOOL_TABLES.map((table) => table.name).reverse(),
  'roster_ids',
  'roster_fields',
];

/** Deletes every row of the school's data in one transaction, keeping the schema. */
export async function clearSchool(session: Session): Promise<void> {
  const { db } = session;
  await db.transaction().execute(async (transaction) => {
    for (const table of TABLES_CHILDREN_FIRST) await transaction.deleteFrom(table).execute();
  });
}

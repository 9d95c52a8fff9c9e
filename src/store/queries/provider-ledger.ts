import type { Session } from '../session';

/**
 * A record a OneRoster consumer wrote, in the ledger as an import leaves it: its sourcedId named
 * with the store's id and the time it was modified (a new entry when `created`, else its time
 * moved on), and its row kept whole in `file` (none when `fields` is null).
 */
export async function ledgerWrite(
  transaction: Session,
  record: {
    readonly kind: 'assessments' | 'marks';
    readonly file: string;
    readonly sourcedId: string;
    readonly id: number;
    readonly modifiedAt: string;
    readonly fields: string | null;
  },
  created: boolean,
): Promise<void> {
  const { db } = transaction;
  const { kind, file, sourcedId, id, modifiedAt, fields } = record;
  if (created) {
    await db.insertInto('roster_ids').values({ kind, sourced_id: sourcedId, id, modified_at: modifiedAt }).execute();
  } else {
    await db
      .updateTable('roster_ids')
      .set({ modified_at: modifiedAt })
      .where('kind', '=', kind)
      .where('id', '=', id)
      .execute();
  }
  await db.deleteFrom('roster_fields').where('file', '=', file).where('sourced_id', '=', sourcedId).execute();
  if (fields !== null) await db.insertInto('roster_fields').values({ file, sourced_id: sourcedId, fields }).execute();
}

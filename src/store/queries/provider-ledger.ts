import { compiledQuery } from '../compiled-query';
import { forgetTombstone } from '../roster/tombstones';
import type { Session } from '../session';

// Each PUT of a consumer writes its ledger entry: built and compiled once (see compiled-query.ts).
const insertIdQuery = compiledQuery((db, p: { kind: string; sourcedId: string; id: number; modifiedAt: string }) =>
  db.insertInto('roster_ids').values({ kind: p.kind, sourced_id: p.sourcedId, id: p.id, modified_at: p.modifiedAt }),
);
const touchIdQuery = compiledQuery((db, p: { kind: string; id: number; modifiedAt: string }) =>
  db.updateTable('roster_ids').set({ modified_at: p.modifiedAt }).where('kind', '=', p.kind).where('id', '=', p.id),
);
const deleteFieldsQuery = compiledQuery((db, p: { file: string; sourcedId: string }) =>
  db.deleteFrom('roster_fields').where('file', '=', p.file).where('sourced_id', '=', p.sourcedId),
);
// One statement where a delete and an insert were two: a row kept replaces the one before it.
const putFieldsQuery = compiledQuery((db, p: { file: string; sourcedId: string; fields: string }) =>
  db
    .insertInto('roster_fields')
    .values({ file: p.file, sourced_id: p.sourcedId, fields: p.fields })
    .onConflict((conflict) =>
      conflict.columns(['file', 'sourced_id']).doUpdateSet((eb) => ({ fields: eb.ref('excluded.fields') })),
    ),
);

/**
 * A record a OneRoster consumer wrote, in the ledger as an import leaves it: its sourcedId named
 * with the store's id and the time it was modified (a new entry when `created`, else its time
 * moved on), and its row kept whole in `file` (none when `fields` is null); a new entry takes away
 * the tombstone its sourcedId had.
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
  const { kind, file, sourcedId, id, modifiedAt, fields } = record;
  if (created) {
    await insertIdQuery(transaction, { kind, sourcedId, id, modifiedAt });
    // A record deleted before and written again is no longer deleted for a consumer reading changes.
    await forgetTombstone(transaction, kind, sourcedId);
  } else await touchIdQuery(transaction, { kind, id, modifiedAt });
  if (fields !== null) await putFieldsQuery(transaction, { file, sourcedId, fields });
  else await deleteFieldsQuery(transaction, { file, sourcedId });
}

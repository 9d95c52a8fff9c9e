import type { Kysely } from 'kysely';
import type { OutboxChannel, OutboxState, RosterImportTable } from '../schema';
import type { Session } from '../session';

/** What the status page and the metrics tell of the store as a whole. */

/** The size of the store in bytes: the SQLite file's pages, or the PostgreSQL database's size. */
export function storeSizeBytes({ db, engine }: Session): Promise<number> {
  return engine.sizeBytes(db as unknown as Kysely<unknown>);
}

export type RosterImportRun = Omit<RosterImportTable, 'id'>;

/** The last OneRoster import that was committed, if any. */
export async function lastRosterImport({ db }: Session): Promise<RosterImportRun | undefined> {
  return db
    .selectFrom('roster_imports')
    .select(['started_at', 'finished_at', 'mode', 'source', 'rows_written', 'rows_skipped'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface OutboxGroup {
  readonly state: OutboxState;
  readonly channel: OutboxChannel;
  readonly count: number;
}

/** How many outbox messages are in each state, on each channel (only the pairs that have any). */
export async function outboxCountsByChannel({ db }: Session): Promise<OutboxGroup[]> {
  const rows = await db
    .selectFrom('outbox_messages')
    .select(['state', 'channel', db.fn.countAll<number>().as('count')])
    .groupBy(['state', 'channel'])
    .execute();
  return rows.map((row) => ({ state: row.state, channel: row.channel, count: Number(row.count) }));
}

/** Whether the store holds no school yet (a new store, which the demo school may fill). */
export async function storeIsEmpty({ db }: Session): Promise<boolean> {
  const row = await db.selectFrom('schools').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

import { type Insertable, sql, type Updateable } from 'kysely';
import { OUTBOX_STATES, type OutboxChannel, type OutboxMessageTable, type OutboxState } from '../schema';
import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';

/** The outbox's statements: accepting messages, claiming due ones under a lease, recording outcomes, counting. */

export type NewOutboxRow = Omit<Insertable<OutboxMessageTable>, 'id'>;

/** Rows per statement, under both engines' limits on bound parameters. */
const INSERT_BATCH = 200;

/*
 * Most calls queue one message, or look for one idempotency key (a mark's notification to one
 * device): those statements are built and compiled once (see compiled-query.ts); lists of other
 * lengths keep the statement built for their number.
 */
const insertOneQuery = compiledQuery((db, p: Required<NewOutboxRow>) =>
  db
    .insertInto('outbox_messages')
    .values({
      reference: p.reference,
      channel: p.channel,
      recipient: p.recipient,
      device_id: p.device_id,
      payload: p.payload,
      idempotency_key: p.idempotency_key,
      state: p.state,
      attempts: p.attempts,
      next_attempt_at: p.next_attempt_at,
      lease_owner: p.lease_owner,
      lease_until: p.lease_until,
      last_error: p.last_error,
      created_at: p.created_at,
      finished_at: p.finished_at,
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    // The row given back says it was inserted; one skipped gives none.
    .returning('id'),
);

/** A row with each column it leaves out given as the table's default (null), for the statement compiled once. */
function everyColumnOf(row: NewOutboxRow): Required<NewOutboxRow> {
  return {
    ...row,
    device_id: row.device_id ?? null,
    idempotency_key: row.idempotency_key ?? null,
    lease_owner: row.lease_owner ?? null,
    lease_until: row.lease_until ?? null,
    last_error: row.last_error ?? null,
    finished_at: row.finished_at ?? null,
  };
}
const keyQuery = compiledQuery((db, p: { key: string }) =>
  db.selectFrom('outbox_messages').select('idempotency_key').where('idempotency_key', '=', p.key),
);

/** Inserts the rows; one whose idempotency key is already in the outbox is skipped. Returns how many were inserted. */
export async function insertOutboxRows(session: Session, rows: readonly NewOutboxRow[]): Promise<number> {
  if (rows.length === 1) return (await insertOneQuery(session, everyColumnOf(rows[0]))).length;
  const { db } = session;
  let inserted = 0;
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const result = await db
      .insertInto('outbox_messages')
      .values(rows.slice(start, start + INSERT_BATCH))
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/**
 * Inserts the rows as insertOutboxRows does, in a savepoint that is then released (they stay) or
 * rolled back to (nothing of them stays, not even for the commit). Both ways run the same three
 * statements, so a caller that must not tell the two apart by their time can take either.
 */
export async function insertOutboxRowsTentatively(
  session: Session,
  rows: readonly NewOutboxRow[],
  keep: boolean,
): Promise<void> {
  await sql`savepoint outbox_insert`.execute(session.db);
  await insertOutboxRows(session, rows);
  await sql`${sql.raw(keep ? 'release' : 'rollback to')} savepoint outbox_insert`.execute(session.db);
}

export type ClaimedMessage = Pick<
  OutboxMessageTable,
  'reference' | 'channel' | 'recipient' | 'device_id' | 'payload' | 'attempts'
> & {
  id: number;
};

/**
 * Claims up to `limit` due messages for one owner until `leaseUntil`, in one statement, so that
 * two workers never hold the same message: on PostgreSQL the candidate rows are locked with FOR
 * UPDATE SKIP LOCKED, so concurrent claimers pass over each other's rows; on SQLite the single
 * writer makes the UPDATE atomic. A message whose lease ran out (its worker died) is due again.
 */
export async function claimDueMessages(
  { db, engine }: Session,
  owner: string,
  channels: readonly OutboxChannel[],
  at: string,
  leaseUntil: string,
  limit: number,
): Promise<ClaimedMessage[]> {
  if (channels.length === 0) return [];
  const lock = engine.claimLock;
  const result = await sql<ClaimedMessage>`
    update outbox_messages set lease_owner = ${owner}, lease_until = ${leaseUntil}
    where id in (
      select id from outbox_messages
      where state in ('queued', 'retrying') and channel in (${sql.join([...channels])})
        and next_attempt_at <= ${at} and (lease_until is null or lease_until < ${at})
      order by next_attempt_at, id
      limit ${limit}
      ${lock}
    )
    returning id, reference, channel, recipient, device_id, payload, attempts`.execute(db);
  return result.rows;
}

export type OutboxChanges = Updateable<OutboxMessageTable>;

/**
 * Changes a message only while `owner` holds its lease, so a worker whose lease ran out cannot
 * overwrite the outcome of the one that took the message over.
 */
export async function updateLeasedMessage(
  { db }: Session,
  owner: string,
  id: number,
  changes: OutboxChanges,
): Promise<void> {
  await db.updateTable('outbox_messages').set(changes).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** Stops pushes to a device whose token the gateway reported gone. */
export async function disableDevice({ db }: Session, deviceId: number): Promise<void> {
  await db.updateTable('devices').set({ enabled: 0 }).where('id', '=', deviceId).execute();
}

export type OutboxCounts = Record<OutboxState, number>;

/** How many outbox messages are in each state. */
export async function outboxCounts({ db }: Session): Promise<OutboxCounts> {
  const rows = await db
    .selectFrom('outbox_messages')
    .select(['state', db.fn.countAll<number>().as('count')])
    .groupBy('state')
    .execute();
  const counts = Object.fromEntries(OUTBOX_STATES.map((state) => [state, 0])) as OutboxCounts;
  for (const row of rows) counts[row.state] = Number(row.count);
  return counts;
}

/** Which of these idempotency keys are already in the outbox. */
export async function existingIdempotencyKeys(session: Session, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (keys.length === 1) {
    for (const row of await keyQuery(session, { key: keys[0] }))
      if (row.idempotency_key) found.add(row.idempotency_key);
    return found;
  }
  const { db } = session;
  for (let start = 0; start < keys.length; start += INSERT_BATCH) {
    const rows = await db
      .selectFrom('outbox_messages')
      .select('idempotency_key')
      .where('idempotency_key', 'in', keys.slice(start, start + INSERT_BATCH))
      .execute();
    for (const row of rows) if (row.idempotency_key !== null) found.add(row.idempotency_key);
  }
  return found;
}

/**
 * Gives back the messages `owner` still holds, unsent, so that another worker claims them at once
 * rather than when the lease runs out: a worker that stops calls it once its sends have ended.
 */
export async function releaseLeases({ db }: Session, owner: string): Promise<number> {
  const result = await db
    .updateTable('outbox_messages')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .where('state', 'in', ['queued', 'retrying'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether any message is still to be sent (queued, or waiting to be tried again): one index probe. */
export async function holdsUnsentMessages({ db }: Session): Promise<boolean> {
  const row = await db
    .selectFrom('outbox_messages')
    .select('id')
    .where('state', 'in', ['queued', 'retrying'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

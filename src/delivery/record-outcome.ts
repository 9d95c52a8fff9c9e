import type { Kysely, Updateable } from 'kysely';
import type { Database, OutboxMessageTable } from '../store/schema';
import { retryDelayMs } from './backoff';
import type { ClaimedMessage } from './claim';
import type { DeliveryConfig } from './delivery-config';
import type { GatewayOutcome } from './gateway';

export type RecordedState = 'sent' | 'retrying' | 'failed';

/**
 * Records what became of a claimed message and releases its lease. A final state (sent or failed)
 * empties the payload: nothing of a delivered or abandoned message stays readable. Only the
 * worker holding the lease may record, so a worker whose lease ran out cannot overwrite the
 * outcome of the one that took the message over.
 */
export async function recordOutcome(
  db: Kysely<Database>,
  owner: string,
  message: ClaimedMessage,
  outcome: GatewayOutcome,
  settings: DeliveryConfig,
  now: Date,
): Promise<RecordedState> {
  const attempts = message.attempts + 1;
  const at = now.toISOString();
  const release = { attempts, lease_owner: null, lease_until: null };
  let state: RecordedState;
  if (outcome.kind === 'sent') {
    state = 'sent';
    await update(db, owner, message.id, { ...release, state, payload: '', finished_at: at, last_error: null });
  } else if (outcome.kind === 'retry' && attempts < settings.maxAttempts) {
    state = 'retrying';
    const delay = retryDelayMs(attempts, settings.backoffBaseMs, settings.backoffMaxMs, outcome.retryAfterMs);
    await update(db, owner, message.id, {
      ...release,
      state,
      last_error: outcome.error,
      next_attempt_at: new Date(now.getTime() + delay).toISOString(),
    });
  } else {
    state = 'failed';
    await db.transaction().execute(async (transaction) => {
      await update(transaction, owner, message.id, {
        ...release,
        state,
        payload: '',
        finished_at: at,
        last_error: outcome.error,
      });
      if (outcome.kind === 'token-invalid' && message.device_id !== null) {
        await transaction.updateTable('devices').set({ enabled: 0 }).where('id', '=', message.device_id).execute();
      }
    });
  }
  return state;
}

type Changes = Updateable<OutboxMessageTable>;

async function update(db: Kysely<Database>, owner: string, id: number, changes: Changes): Promise<void> {
  await db.updateTable('outbox_messages').set(changes).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

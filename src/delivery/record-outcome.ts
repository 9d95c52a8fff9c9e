import type { DeliveryConfig } from '../config/delivery-settings';
import { type ClaimedMessage, disableDevice, updateLeasedMessage } from '../store/queries/outbox';
import { inTransaction, type Session } from '../store/session';
import { retryDelayMs } from './backoff';
import type { GatewayOutcome } from './gateway';

export type RecordedState = 'sent' | 'retrying' | 'failed';

/**
 * Records what became of a claimed message and releases its lease. A final state (sent or failed)
 * empties the payload: nothing of a delivered or abandoned message stays readable. Only the
 * worker holding the lease may record (see updateLeasedMessage).
 */
export async function recordOutcome(
  session: Session,
  owner: string,
  message: ClaimedMessage,
  outcome: GatewayOutcome,
  settings: DeliveryConfig,
  now: Date,
): Promise<RecordedState> {
  const attempts = message.attempts + 1;
  const at = now.toISOString();
  const release = { attempts, lease_owner: null, lease_until: null };
  if (outcome.kind === 'sent') {
    await updateLeasedMessage(session, owner, message.id, {
      ...release,
      state: 'sent',
      payload: '',
      finished_at: at,
      last_error: null,
    });
    return 'sent';
  }
  if (outcome.kind === 'retry' && attempts < settings.maxAttempts) {
    const delay = retryDelayMs(attempts, settings.backoffBaseMs, settings.backoffMaxMs, outcome.retryAfterMs);
    await updateLeasedMessage(session, owner, message.id, {
      ...release,
      state: 'retrying',
      last_error: outcome.error,
      next_attempt_at: new Date(now.getTime() + delay).toISOString(),
    });
    return 'retrying';
  }
  await inTransaction(session, async (transaction) => {
    await updateLeasedMessage(transaction, owner, message.id, {
      ...release,
      state: 'failed',
      payload: '',
      finished_at: at,
      last_error: outcome.error,
    });
    if (outcome.kind === 'token-invalid' && message.device_id !== null) {
      await disableDevice(transaction, message.device_id);
    }
  });
  return 'failed';
}

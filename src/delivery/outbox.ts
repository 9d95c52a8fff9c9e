import { randomUUID } from 'node:crypto';
import { insertOutboxRows } from '../store/queries/outbox';
import type { Session } from '../store/session';
import type { PayloadSealer } from '../lib/payload-sealer';

/**
 * Accepting messages: they are written to the outbox in the caller's transaction, so a message is
 * queued exactly when everything else the operation records is, and before the caller is answered.
 */

export interface SmsContent {
  readonly text: string;
}

export interface PushContent {
  readonly title: string;
  readonly body: string;
  readonly data: Readonly<Record<string, string>>;
}

export type NewMessage =
  | {
      readonly channel: 'sms';
      readonly recipient: string;
      readonly content: SmsContent;
      readonly idempotencyKey?: string;
    }
  | {
      readonly channel: 'push';
      readonly recipient: string;
      readonly deviceId: number;
      readonly content: PushContent;
      readonly idempotencyKey?: string;
    };

/** The reference a caller gets for an accepted request, whether or not anything was queued for it. */
export function newDeliveryReference(): string {
  return randomUUID();
}

/**
 * Queues the messages, their content sealed; one whose idempotency key is already in the outbox
 * is skipped. Returns how many were newly queued.
 */
export async function enqueueMessages(
  session: Session,
  messages: readonly NewMessage[],
  reference: string,
  now: Date,
  sealer: PayloadSealer,
): Promise<number> {
  if (messages.length === 0) return 0;
  const at = now.toISOString();
  return insertOutboxRows(
    session,
    messages.map((message) => ({
      reference,
      channel: message.channel,
      recipient: message.recipient,
      device_id: message.channel === 'push' ? message.deviceId : null,
      payload: sealer.seal(JSON.stringify(message.content)),
      idempotency_key: message.idempotencyKey ?? null,
      state: 'queued' as const,
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
    })),
  );
}

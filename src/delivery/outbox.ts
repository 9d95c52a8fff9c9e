import { randomUUID } from 'node:crypto';
import { insertOutboxRows, insertOutboxRowsTentatively, type NewOutboxRow } from '../store/queries/outbox';
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
      /** The registered device it goes to; null only for a push that is rehearsed, never queued. */
      readonly deviceId: number | null;
      readonly content: PushContent;
      readonly idempotencyKey?: string;
    };

/** The reference a caller gets for an accepted request, whether or not anything was queued for it. */
export function newDeliveryReference(): string {
  return randomUUID();
}

/** As many bytes as the text, saying nothing: what a rehearsed row holds in place of the request's. */
function blank(text: string): string {
  return '0'.repeat(Buffer.byteLength(text));
}

/**
 * The outbox row of a message, its content sealed. A rehearsal's row has the same sizes and is
 * sealed alike, but holds nothing of the request: PostgreSQL writes even an insert that is rolled
 * back, as a dead row until it is vacuumed.
 */
function outboxRow(
  message: NewMessage,
  reference: string,
  at: string,
  sealer: PayloadSealer,
  rehearsal = false,
): NewOutboxRow {
  const content = JSON.stringify(message.content);
  return {
    reference,
    channel: message.channel,
    recipient: rehearsal ? blank(message.recipient) : message.recipient,
    device_id: message.channel === 'push' ? message.deviceId : null,
    payload: sealer.seal(rehearsal ? blank(content) : content),
    idempotency_key: message.idempotencyKey ?? null,
    state: 'queued' as const,
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
  };
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
    messages.map((message) => outboxRow(message, reference, at, sealer)),
  );
}

/**
 * Queues the message when `queue` is set; otherwise rehearses it: the same work, a row of the same
 * sizes sealed and inserted, and the insert taken back, so that nothing is stored. An operation
 * that must not tell whether its callee is registered answers both the same way, in the same time.
 */
export async function enqueueOrRehearse(
  session: Session,
  message: NewMessage,
  queue: boolean,
  reference: string,
  now: Date,
  sealer: PayloadSealer,
): Promise<void> {
  const row = outboxRow(message, reference, now.toISOString(), sealer, !queue);
  await insertOutboxRowsTentatively(session, [row], queue);
}

import { enqueueMessages, type NewMessage, newDeliveryReference } from '../delivery/outbox';
import type { PayloadSealer } from '../lib/payload-sealer';
import { markRecipients } from '../store/queries/directory';
import { existingIdempotencyKeys } from '../store/queries/outbox';
import { inTransaction, type Session } from '../store/session';
import { countAgainstLimits, MINUTE_MS, type RateLimit } from './rate-limit';

export interface MarkNotificationLimits {
  /** The caller's own limit; past it nothing is queued and the call is refused. */
  readonly caller: RateLimit;
  /** Pushes to one device a minute; a device past it is left out of this call's messages. */
  readonly perDevicePerMinute: number;
}

/**
 * Queues one push per enabled guardian device of each student with a mark in the assessment,
 * "<subject>: <score>/<max>", titled with the student's name. Each carries an idempotency key of
 * the assessment, mark, device and score, so asking again queues nothing new, while a corrected
 * mark is notified again. Returns how many were newly queued, or 'limited' when the caller's
 * limit was reached (then nothing is written).
 */
export async function queueMarkNotifications(
  session: Session,
  target: { readonly assessmentId: number; readonly classId: number },
  call: { readonly now: Date; readonly sealer: PayloadSealer },
  limits: MarkNotificationLimits,
): Promise<number | 'limited'> {
  const { assessmentId, classId } = target;
  return inTransaction(session, async (transaction) => {
    if (await countAgainstLimits(transaction, [limits.caller], call.now)) return 'limited';
    const rows = await markRecipients(transaction, assessmentId, classId);
    const messages: NewMessage[] = rows.map((row) => ({
      channel: 'push',
      recipient: row.token,
      deviceId: row.deviceId,
      content: {
        title: row.studentName,
        body: `${row.subjectName}: ${row.score}/${row.maxScore}`,
        data: {
          kind: 'mark',
          assessmentId: String(assessmentId),
          studentId: String(row.studentId),
          markId: String(row.markId),
        },
      },
      idempotencyKey: `mark:${assessmentId}:${row.markId}:${row.deviceId}:${row.score}`,
    }));
    const queuedBefore = await existingIdempotencyKeys(
      transaction,
      messages.map((message) => message.idempotencyKey as string),
    );
    const fresh: NewMessage[] = [];
    for (const message of messages) {
      if (queuedBefore.has(message.idempotencyKey as string) || message.channel !== 'push') continue;
      const device = {
        key: `push:device-id:${message.deviceId}`,
        limit: limits.perDevicePerMinute,
        windowMs: MINUTE_MS,
      };
      if (!(await countAgainstLimits(transaction, [device], call.now))) fresh.push(message);
    }
    return enqueueMessages(transaction, fresh, newDeliveryReference(), call.now, call.sealer);
  });
}

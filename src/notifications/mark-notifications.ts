import { enqueueMessages, type NewMessage, newDeliveryReference } from '../delivery/outbox';
import type { PayloadSealer } from '../lib/payload-sealer';
import { MARK_RECIPIENTS_NAMED_MAX, type MarkRecipient, markRecipients } from '../store/queries/directory';
import { existingIdempotencyKeys } from '../store/queries/outbox';
import { inTransaction, type Session } from '../store/session';
import { countAgainstLimits, pushDeviceLimit, type RateLimit } from '../rate-limits/rate-limit';

export interface MarkNotificationLimits {
  /** The caller's own limit; past it nothing is queued and the call is refused. */
  readonly caller: RateLimit;
  /** Pushes to one device a minute; a device past it is left out of this call's messages. */
  readonly perDevicePerMinute: number;
}

function idempotencyKeyOf(assessmentId: number, row: MarkRecipient): string {
  return `mark:${assessmentId}:${row.markId}:${row.deviceId}:${row.score}`;
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
  /** Only these marks (a sync's new results); every mark of the assessment when undefined. */
  onlyMarks?: ReadonlySet<number>,
): Promise<number | 'limited'> {
  return inTransaction(session, (transaction) =>
    queueMarkNotificationsWithin(transaction, target, call, limits, onlyMarks),
  );
}

/**
 * The same, within a transaction the caller holds: a consumer's PUT writes its mark and queues its
 * notifications in one transaction, one commit on its path instead of two, and the mark is never
 * stored without them.
 */
export async function queueMarkNotificationsWithin(
  transaction: Session,
  target: { readonly assessmentId: number; readonly classId: number },
  call: { readonly now: Date; readonly sealer: PayloadSealer },
  limits: MarkNotificationLimits,
  onlyMarks?: ReadonlySet<number>,
): Promise<number | 'limited'> {
  const { assessmentId, classId } = target;
  if (await countAgainstLimits(transaction, [limits.caller], call.now)) return 'limited';
  // A few marks (a consumer's one) are named to the query; a sync's many are picked from the assessment's.
  const named = onlyMarks && onlyMarks.size <= MARK_RECIPIENTS_NAMED_MAX ? [...onlyMarks] : undefined;
  const rows = (await markRecipients(transaction, assessmentId, classId, named)).filter(
    (row) => !onlyMarks || onlyMarks.has(row.markId),
  );
  const queuedBefore = await existingIdempotencyKeys(
    transaction,
    rows.map((row) => idempotencyKeyOf(assessmentId, row)),
  );
  const fresh: NewMessage[] = [];
  for (const row of rows) {
    if (queuedBefore.has(idempotencyKeyOf(assessmentId, row))) continue;
    // The same count as PushNotificationToGateway's for the device: pushes to it from every operation.
    const device = pushDeviceLimit(row.applicationId, row.deviceKey, limits.perDevicePerMinute);
    if (await countAgainstLimits(transaction, [device], call.now)) continue;
    fresh.push({
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
      idempotencyKey: idempotencyKeyOf(assessmentId, row),
    });
  }
  return enqueueMessages(transaction, fresh, newDeliveryReference(), call.now, call.sealer);
}

import { enqueueMessages, type NewMessage } from '../delivery/outbox';
import type { PayloadSealer } from '../lib/payload-sealer';
import { markRecipients } from '../store/queries/directory';
import { inTransaction, type Session } from '../store/session';

/**
 * Queues one push per enabled guardian device of each student with a mark in the assessment,
 * "<subject>: <score>/<max>", titled with the student's name. Each carries an idempotency key of
 * the assessment, mark, device and score, so asking again queues nothing new, while a corrected
 * mark is notified again. Returns how many were newly queued.
 */
export async function queueMarkNotifications(
  session: Session,
  assessmentId: number,
  classId: number,
  reference: string,
  now: Date,
  sealer: PayloadSealer,
): Promise<number> {
  return inTransaction(session, async (transaction) => {
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
    return enqueueMessages(transaction, messages, reference, now, sealer);
  });
}

import type { Kysely } from 'kysely';
import type { PayloadSealer } from '../delivery/payload-sealer';
import { enqueueMessages, type NewMessage } from '../delivery/outbox';
import type { Database } from '../store/schema';

/**
 * Queues one push per enabled guardian device of each student with a mark in the assessment,
 * "<subject>: <score>/<max>", titled with the student's name. Each carries an idempotency key of
 * the assessment, mark, device and score, so asking again queues nothing new, while a corrected
 * mark is notified again. Returns how many were newly queued.
 */
export async function queueMarkNotifications(
  db: Kysely<Database>,
  assessmentId: number,
  classId: number,
  reference: string,
  now: Date,
  sealer: PayloadSealer,
): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    const rows = await transaction
      .selectFrom('marks as mark')
      .innerJoin('assessments as assessment', 'assessment.id', 'mark.assessment_id')
      .innerJoin('subjects as subject', 'subject.id', 'assessment.subject_id')
      .innerJoin('student_records as record', 'record.id', 'mark.student_record_id')
      .innerJoin('students as student', 'student.id', 'record.student_id')
      .innerJoin('student_guardians as link', 'link.student_id', 'student.id')
      .innerJoin('devices as device', 'device.guardian_id', 'link.guardian_id')
      .select([
        'mark.id as markId',
        'mark.score as score',
        'assessment.max_score as maxScore',
        'subject.name_ar as subjectName',
        'student.id as studentId',
        'student.name_ar as studentName',
        'device.id as deviceId',
        'device.push_token as token',
      ])
      .where('assessment.id', '=', assessmentId)
      .where('assessment.class_id', '=', classId)
      .where('record.class_id', '=', classId)
      .where('device.enabled', '=', 1)
      .orderBy('mark.id')
      .orderBy('device.id')
      .execute();
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

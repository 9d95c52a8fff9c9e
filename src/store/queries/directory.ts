import { type Kysely, sql } from 'kysely';
import { compiledQuery } from '../compiled-query';
import type { Database } from '../schema';
import type { Session } from '../session';

/** The school's people and devices as the notification operations look them up. */

/**
 * Whether a phone number (E.164) belongs to someone in the school: a guardian, a student or a
 * teacher. All three are looked up every time, found or not, so that the answer takes as long for
 * a number that is registered as for one that is not.
 */
export async function isDirectoryPhone({ db }: Session, phone: string): Promise<boolean> {
  const { rows } = await sql<{ found: number | string }>`
    select (select count(*) from guardians where phone = ${phone})
      + (select count(*) from students where phone = ${phone})
      + (select count(*) from teachers where phone = ${phone}) as found`.execute(db);
  return Number(rows[0].found) > 0;
}

export interface PushDevice {
  readonly id: number;
  readonly pushToken: string;
  /** The guardian it is registered to: a scoped caller may push only to the guardians it reaches. */
  readonly guardianId: number;
}

/** The enabled device registered under deviceId for the application, if any. */
export async function enabledDevice(
  { db }: Session,
  applicationId: string,
  deviceId: string,
): Promise<PushDevice | undefined> {
  return db
    .selectFrom('devices')
    .select(['id', 'push_token as pushToken', 'guardian_id as guardianId'])
    .where('application_id', '=', applicationId)
    .where('device_id', '=', deviceId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
}

export interface MarkRecipient {
  readonly markId: number;
  readonly score: number;
  readonly maxScore: number;
  readonly subjectName: string;
  readonly studentId: number;
  readonly studentName: string;
  readonly deviceId: number;
  /** The device as PushNotificationToGateway names it: its application and its device id. */
  readonly applicationId: string;
  readonly deviceKey: string;
  readonly token: string;
}

/** The most marks named in one statement; a longer list reads the assessment's marks and is filtered by the caller. */
export const MARK_RECIPIENTS_NAMED_MAX = 500;

/**
 * Each mark of the assessment in the class with each enabled device of the student's guardians;
 * only `marks` (at most MARK_RECIPIENTS_NAMED_MAX) when given, so that one mark written does not
 * read the whole class's.
 */
export async function markRecipients(
  session: Session,
  assessmentId: number,
  classId: number,
  marks?: readonly number[],
): Promise<MarkRecipient[]> {
  if (marks && marks.length > MARK_RECIPIENTS_NAMED_MAX) throw new Error('too many marks named in one statement');
  // One mark named (a consumer's PUT) runs a statement compiled once; a list of any other length is built for it.
  if (marks?.length === 1) return oneMarkRecipientsQuery(session, { assessmentId, classId, markId: marks[0] });
  return (
    recipientsOf(session.db, assessmentId, classId)
      // No mark named selects none (an empty IN list is not SQL).
      .$if(marks !== undefined, (query) => query.where('mark.id', 'in', marks?.length ? [...marks] : [-1]))
      .orderBy('mark.id')
      .orderBy('device.id')
      .execute()
  );
}

const oneMarkRecipientsQuery = compiledQuery((db, p: { assessmentId: number; classId: number; markId: number }) =>
  recipientsOf(db, p.assessmentId, p.classId).where('mark.id', '=', p.markId).orderBy('device.id'),
);

function recipientsOf(db: Kysely<Database>, assessmentId: number, classId: number) {
  return db
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
      'device.application_id as applicationId',
      'device.device_id as deviceKey',
      'device.push_token as token',
    ])
    .where('assessment.id', '=', assessmentId)
    .where('assessment.class_id', '=', classId)
    .where('record.class_id', '=', classId)
    .where('device.enabled', '=', 1);
}

import type { Selectable } from 'kysely';
import type { StoreConnection } from '../open-store';
import type { AuditEventTable, AuditSubjectTable } from '../schema';
import { inTransaction, type Session } from '../session';

/** The audit trail: appended in batches, read by the audit command, pruned after its retention. */

export type AuditEventRow = Selectable<AuditEventTable>;
export type AuditSubjectRow = Selectable<AuditSubjectTable>;

/**
 * Appends a batch of the trail, once: rows already there (a batch written again because its writer
 * died before saying it was done, or a journal moved again after a crash) are left as they are.
 * Each engine writes it its fastest way without holding others up long (its audit-batch.ts).
 */
export function appendAuditBatchOnce(
  store: StoreConnection,
  events: readonly AuditEventRow[],
  subjects: readonly AuditSubjectRow[],
): Promise<void> {
  return store.connection.appendAuditBatch(events, subjects);
}

export interface AuditQuery {
  readonly student?: number;
  /**
   * Operations audited by the class they list rather than by each student in it: for a student,
   * their events in the classes the student is enrolled in count too.
   */
  readonly classRecordedOperations?: readonly string[];
  readonly caller?: string;
  readonly since?: string;
  readonly limit: number;
}

export interface AuditEntry extends AuditEventRow {
  readonly subjects: readonly { kind: string; subjectId: number }[];
}

/** The events about a student or by a caller, newest first, with everything each touched. */
export async function auditEntries({ db }: Session, query: AuditQuery): Promise<AuditEntry[]> {
  let events = db.selectFrom('audit_events as event').selectAll('event');
  if (query.student !== undefined) {
    const student = query.student;
    const classwide = query.classRecordedOperations ?? [];
    events = events.where((eb) => {
      const touching = (kind: 'student' | 'class') =>
        eb
          .selectFrom('audit_subjects as subject')
          .select('subject.event_id')
          .whereRef('subject.event_id', '=', 'event.id')
          .where('subject.kind', '=', kind);
      const ofStudent = eb.exists(touching('student').where('subject.subject_id', '=', student));
      if (classwide.length === 0) return ofStudent;
      const enrolled = eb.selectFrom('student_records').select('class_id').where('student_id', '=', student);
      const ofClass = eb.exists(touching('class').where('subject.subject_id', 'in', enrolled));
      return eb.or([ofStudent, eb.and([eb('event.operation', 'in', classwide), ofClass])]);
    });
  }
  if (query.caller !== undefined) events = events.where('event.caller', '=', query.caller);
  // Ids begin with the event's time, so that the primary key orders and ranges them by time.
  if (query.since !== undefined) events = events.where('event.id', '>=', query.since);
  const rows = await events.orderBy('event.id', 'desc').limit(query.limit).execute();
  if (rows.length === 0) return [];
  const subjects = await db
    .selectFrom('audit_subjects')
    .select(['event_id', 'kind', 'subject_id'])
    .where(
      'event_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('kind')
    .orderBy('subject_id')
    .execute();
  return rows.map((row) => ({
    ...row,
    subjects: [
      ...subjects
        .filter((subject) => subject.event_id === row.id)
        .map((subject) => ({ kind: subject.kind as string, subjectId: subject.subject_id })),
      ...(row.teachers === '' ? [] : row.teachers.split(',')).map((id) => ({ kind: 'teacher', subjectId: Number(id) })),
    ],
  }));
}

/** Deletes up to `limit` of the events older than `before`, with what they touched; returns how many. */
export async function pruneAuditTrail(session: Session, before: string, limit: number): Promise<number> {
  return inTransaction(session, async ({ db }) => {
    const ids = (await db.selectFrom('audit_events').select('id').where('id', '<', before).limit(limit).execute()).map(
      (row) => row.id,
    );
    if (ids.length === 0) return 0;
    await db.deleteFrom('audit_subjects').where('event_id', 'in', ids).execute();
    await db.deleteFrom('audit_events').where('id', 'in', ids).execute();
    return ids.length;
  });
}

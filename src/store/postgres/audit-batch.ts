import { type Kysely, type Selectable, sql } from 'kysely';
import type { AuditEventTable, AuditSubjectTable, Database } from '../schema';

/** Appends a batch of the trail in one statement per table, its columns sent as arrays; rows already there are left. */
export async function appendPostgresAuditBatch(
  store: Kysely<Database>,
  events: readonly Selectable<AuditEventTable>[],
  subjects: readonly Selectable<AuditSubjectTable>[],
): Promise<void> {
  const column = <Row>(rows: readonly Row[], pick: (row: Row) => unknown) => rows.map(pick);
  await store.transaction().execute(async (db) => {
    if (events.length > 0) {
      await sql`insert into audit_events
          (id, occurred_at, caller, address, operation, binding, outcome, teachers, calls, school)
        select * from unnest(${column(events, (e) => e.id)}::text[], ${column(events, (e) => e.occurred_at)}::text[],
          ${column(events, (e) => e.caller)}::text[], ${column(events, (e) => e.address)}::text[],
          ${column(events, (e) => e.operation)}::text[], ${column(events, (e) => e.binding)}::text[],
          ${column(events, (e) => e.outcome)}::text[], ${column(events, (e) => e.teachers)}::text[],
          ${column(events, (e) => e.calls)}::integer[], ${column(events, (e) => e.school)}::text[])
        on conflict do nothing`.execute(db);
    }
    if (subjects.length > 0) {
      await sql`insert into audit_subjects (event_id, kind, subject_id)
        select * from unnest(${column(subjects, (s) => s.event_id)}::text[], ${column(subjects, (s) => s.kind)}::text[],
          ${column(subjects, (s) => s.subject_id)}::integer[])
        on conflict do nothing`.execute(db);
    }
  });
}

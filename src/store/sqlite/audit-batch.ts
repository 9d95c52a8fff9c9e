import type BetterSqlite3 from 'better-sqlite3';
import type { Selectable } from 'kysely';
import type { AuditEventTable, AuditSubjectTable } from '../schema';

/** Rows a SQLite transaction of the trail's writer holds the write lock for: a few milliseconds' worth. */
const SQLITE_ROWS_PER_TRANSACTION = 500;

/**
 * Appends a batch of the trail with prepared statements in transactions of a few hundred rows, so
 * that another connection waiting to write (the service's own, for a nonce or a message) waits
 * milliseconds at most; rows already there are left as they are.
 */
export function appendSqliteAuditBatch(
  database: BetterSqlite3.Database,
  events: readonly Selectable<AuditEventTable>[],
  subjects: readonly Selectable<AuditSubjectTable>[],
): void {
  const insertEvent = database.prepare(
    'insert or ignore into audit_events' +
      ' (id, occurred_at, caller, address, operation, binding, outcome, teachers, calls, school)' +
      ' values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertSubject = database.prepare(
    'insert or ignore into audit_subjects (event_id, kind, subject_id) values (?, ?, ?)',
  );
  const rows = [
    ...events.map(
      (event) => () =>
        insertEvent.run(
          event.id,
          event.occurred_at,
          event.caller,
          event.address,
          event.operation,
          event.binding,
          event.outcome,
          event.teachers,
          event.calls,
          event.school,
        ),
    ),
    ...subjects.map((subject) => () => insertSubject.run(subject.event_id, subject.kind, subject.subject_id)),
  ];
  const writeChunk = database.transaction((chunk: (() => unknown)[]) => {
    for (const write of chunk) write();
  });
  for (let start = 0; start < rows.length; start += SQLITE_ROWS_PER_TRANSACTION) {
    writeChunk.immediate(rows.slice(start, start + SQLITE_ROWS_PER_TRANSACTION));
  }
}

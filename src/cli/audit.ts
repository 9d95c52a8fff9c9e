import { CLASS_RECORDED_OPERATIONS } from '../operations/registry';
import { readCalendarDate } from '../lib/calendar-date';
import { type AuditEntry, auditEntries } from '../store/queries/audit-trail';
import { withConfiguredStore } from './configured-store';
import { UsageError } from './usage-error';

export interface AuditOptions {
  readonly student: number | undefined;
  readonly caller: string | undefined;
  readonly since: string | undefined;
  readonly limit: number;
  readonly json: boolean;
}

function entryLine(entry: AuditEntry): string {
  const touched = ['student', 'teacher', 'class']
    .map((kind) => {
      const ids = entry.subjects.filter((subject) => subject.kind === kind).map((subject) => subject.subjectId);
      return ids.length === 0 ? undefined : `${kind} ${ids.join(',')}`;
    })
    .filter((part) => part !== undefined);
  return [
    entry.occurred_at,
    entry.caller,
    entry.address,
    entry.operation,
    entry.binding,
    entry.calls > 1 ? `${entry.outcome} x${entry.calls}` : entry.outcome,
    touched.join('; ') || '-',
  ].join('  ');
}

/**
 * school-service audit --student ID | --caller NAME [--since DATE]: who saw this child's record,
 * when, through what; or what a caller saw. Newest first.
 */
export async function auditCommand(options: AuditOptions): Promise<void> {
  if (options.student === undefined && options.caller === undefined) {
    throw new UsageError('name a --student or a --caller (or both)');
  }
  let since: string | undefined;
  if (options.since !== undefined) {
    if (readCalendarDate(options.since) === 'no-such-day')
      throw new UsageError(`--since ${options.since}: no such day`);
    const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(options.since) ? `${options.since}T00:00:00Z` : options.since);
    if (Number.isNaN(at)) throw new UsageError(`--since must be a date (2026-11-01) or a time, got "${options.since}"`);
    since = new Date(at).toISOString();
  }
  return withConfiguredStore(
    async (store) => {
      const entries = await auditEntries(store, {
        student: options.student,
        classRecordedOperations: CLASS_RECORDED_OPERATIONS,
        caller: options.caller,
        since,
        limit: options.limit,
      });
      if (options.json) process.stdout.write(`${JSON.stringify(entries)}\n`);
      else if (entries.length === 0) process.stdout.write('No audited calls match.\n');
      else process.stdout.write(`${entries.map(entryLine).join('\n')}\n`);
    },
    { mustExist: true },
  );
}

import { CLASS_RECORDED_OPERATIONS } from '../operations/registry';
import { readCalendarDate } from '../lib/calendar-date';
import { loadConfig } from '../config/service-config';
import { configureLog } from '../lib/log';
import { type AuditEntry, type AuditQuery, auditEntries } from '../store/queries/audit-trail';
import { allSchoolsEntries } from './audit-all-schools';
import { withConfiguredStore } from './configured-store';
import { UsageError } from './usage-error';

export interface AuditOptions {
  readonly student: number | undefined;
  readonly caller: string | undefined;
  readonly since: string | undefined;
  readonly limit: number;
  readonly json: boolean;
  /** Set by --school (or SCHOOL): the command already reads that school's store. */
  readonly school?: string;
  readonly allSchools?: boolean;
}

/** A line of the listing; with `withSchool`, the school it was answered at after its time ('-': the deployment's). */
function entryLine(entry: AuditEntry, withSchool: boolean): string {
  const touched = ['student', 'teacher', 'class']
    .map((kind) => {
      const ids = entry.subjects.filter((subject) => subject.kind === kind).map((subject) => subject.subjectId);
      return ids.length === 0 ? undefined : `${kind} ${ids.join(',')}`;
    })
    .filter((part) => part !== undefined);
  return [
    entry.occurred_at,
    ...(withSchool ? [entry.school ?? '-'] : []),
    entry.caller,
    entry.address,
    entry.operation,
    entry.binding,
    entry.calls > 1 ? `${entry.outcome} x${entry.calls}` : entry.outcome,
    touched.join('; ') || '-',
  ].join('  ');
}

function printEntries(entries: readonly AuditEntry[], options: AuditOptions, withSchool: boolean): void {
  if (options.json) process.stdout.write(`${JSON.stringify(entries)}\n`);
  else if (entries.length === 0) process.stdout.write('No audited calls match.\n');
  else process.stdout.write(`${entries.map((entry) => entryLine(entry, withSchool)).join('\n')}\n`);
}

/** --since as the trail's time, refused when it is no date or time. */
function sinceOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (readCalendarDate(text) === 'no-such-day') throw new UsageError(`--since ${text}: no such day`);
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at)) throw new UsageError(`--since must be a date (2026-11-01) or a time, got "${text}"`);
  return new Date(at).toISOString();
}

/** --all-schools: every trail of the deployment in one listing, each entry naming its school. */
async function allSchoolsListing(options: AuditOptions, query: AuditQuery): Promise<void> {
  if (options.school !== undefined && options.school !== '') {
    throw new UsageError('--all-schools reads every school: leave out --school (and SCHOOL)');
  }
  if (options.student !== undefined) {
    // Each school's store numbers its own students: one id is a different child at each school.
    throw new UsageError('--student names a child of one school: use --school SOURCEDID, not --all-schools');
  }
  const config = loadConfig();
  configureLog(config);
  const { entries, read, missing } = await allSchoolsEntries(config, query);
  const notThere = missing.length > 0 ? `; listed schools with no store yet: ${missing.join(', ')}` : '';
  process.stderr.write(`audit trails read: ${read}${notThere}\n`);
  printEntries(entries, options, true);
}

/**
 * school-service audit --student ID | --caller NAME [--since DATE]: who saw this child's record,
 * when, through what; or what a caller saw. Newest first. With --all-schools, every school's trail
 * (a district caller's calls at each school, say) in one listing.
 */
export async function auditCommand(options: AuditOptions): Promise<void> {
  const query: AuditQuery = {
    student: options.student,
    classRecordedOperations: CLASS_RECORDED_OPERATIONS,
    caller: options.caller,
    since: sinceOf(options.since),
    limit: options.limit,
  };
  if (options.allSchools) return allSchoolsListing(options, query);
  if (options.student === undefined && options.caller === undefined) {
    throw new UsageError('name a --student or a --caller (or both)');
  }
  const withSchool = options.school !== undefined && options.school !== '';
  return withConfiguredStore(async (store) => printEntries(await auditEntries(store, query), options, withSchool), {
    mustExist: true,
  });
}

import { loadOutboxKey, payloadSealer } from '../lib/payload-sealer';
import { log } from '../lib/log';
import { formatProblem } from '../roster/problems';
import { type SyncOutcome, syncSchool } from '../sis/sync-school';
import { logHeapLimit } from './bounded-heap';
import { withConfiguredStore } from './configured-store';
import { EXIT_DONE, EXIT_NOTHING_WRITTEN, EXIT_ROWS_SKIPPED } from './import';
import { UsageError } from './usage-error';

export interface SyncCommandOptions {
  readonly dryRun: boolean;
  readonly full: boolean;
  readonly skipInvalid: boolean;
  readonly strict: boolean;
  readonly ids: string;
  readonly school: string | undefined;
}

/** `school-service sync`: one sync now, with import's exit codes (and 3 when another sync runs). */
export const EXIT_BUSY = 3;

export async function syncCommand(options: SyncCommandOptions): Promise<void> {
  if (options.ids !== 'assigned' && options.ids !== 'from-identifier') {
    throw new UsageError('--ids is assigned or from-identifier');
  }
  process.exitCode = await withConfiguredStore(async (store, config) => {
    const settings = options.school ? { ...config.sis, school: options.school } : config.sis;
    if (!settings.url) throw new UsageError('sync needs SIS_URL (see docs/sync.md)');
    logHeapLimit('sync');
    const notify =
      settings.notifyMarks && !options.dryRun
        ? {
            sealer: payloadSealer(loadOutboxKey(config.delivery.outboxKey, config.dataDirectory)),
            perDevicePerMinute: config.notifications.pushPerDevicePerMinute,
          }
        : undefined;
    const outcome = await syncSchool(store, settings, {
      full: options.full,
      dryRun: options.dryRun,
      skipInvalid: options.skipInvalid,
      strict: options.strict,
      fromIdentifier: options.ids === 'from-identifier',
      defaultCountryCode: config.notifications.defaultCountryCode,
      notify,
    });
    logSync(outcome);
    const listed = outcome.imported?.problems.list();
    for (const problem of listed?.problems ?? []) process.stderr.write(`${formatProblem(problem)}\n`);
    if (listed && listed.notKept > 0) process.stderr.write(`... and ${listed.notKept} more problems\n`);
    process.stdout.write(`${describeSync(outcome, options.dryRun)}\n`);
    if (outcome.outcome === 'busy') return EXIT_BUSY;
    if (outcome.outcome === 'failed' || outcome.outcome === 'nothing-written') return EXIT_NOTHING_WRITTEN;
    return outcome.outcome === 'rows-skipped' ? EXIT_ROWS_SKIPPED : EXIT_DONE;
  });
}

/** The one line a sync leaves in the log, from the command or the service. */
export function logSync(outcome: SyncOutcome): void {
  const fields = {
    outcome: outcome.outcome,
    mode: outcome.mode,
    durationMs: outcome.durationMs,
    records: outcome.records,
    added: outcome.added,
    changed: outcome.changed,
    deleted: outcome.deleted,
    duplicates: outcome.duplicates,
    problems: outcome.problems,
    requests: outcome.requests,
    notified: outcome.notified,
    ...(outcome.message ? { reason: outcome.message } : {}),
  };
  if (outcome.outcome === 'failed' || outcome.outcome === 'nothing-written') log.warn('sis sync', fields);
  else log.info('sis sync', fields);
}

export function describeSync(outcome: SyncOutcome, dryRun: boolean): string {
  if (outcome.outcome === 'busy') return 'Not synced: another sync is running (on this or another node).';
  if (outcome.outcome === 'failed') return `Sync failed, nothing was written: ${outcome.message}.`;
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const read = `${outcome.records} records read in ${outcome.requests} requests, ${seconds} s`;
  if (outcome.outcome === 'nothing-written') {
    return `Nothing was written: ${outcome.problems} problems (--skip-invalid leaves bad rows out); ${read}.`;
  }
  if (dryRun) {
    const counts = Object.entries(outcome.imported?.counts ?? {})
      .map(([table, count]) => `${count} ${table.replace(/_/g, ' ')}`)
      .join(', ');
    return `${outcome.mode} sync would apply: ${counts || 'no records'}; ${outcome.deleted} deleted; ${read}.`;
  }
  return (
    `${outcome.mode} sync: ${outcome.added} added, ${outcome.changed} changed, ${outcome.deleted} deleted, ` +
    `${outcome.warnings} warnings, ${outcome.problems} problems; ${read}` +
    `${outcome.duplicates > 0 ? `; ${outcome.duplicates} records sent twice counted once` : ''}.`
  );
}

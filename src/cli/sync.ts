import { loadOutboxKey, payloadSealer } from '../lib/payload-sealer';
import { counted } from '../lib/counted';
import { formatSyncNote, formatSyncProblem, formatSyncWarning } from '../sis/problem-records';
import { describeSync, logSync } from '../sis/sync-report';
import { syncSchool } from '../sis/sync-school';
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
    // As import prints them (notes, warnings, problems), each at the provider's record.
    const said = outcome.imported?.problems;
    const records = outcome.problemRecords;
    for (const note of said?.notes() ?? []) process.stderr.write(`${formatSyncNote(note, records)}\n`);
    const warnings = said?.warnings();
    for (const warning of warnings?.warnings ?? []) process.stderr.write(`${formatSyncWarning(warning, records)}\n`);
    if (warnings && warnings.notKept > 0) {
      process.stderr.write(`... and ${counted(warnings.notKept, 'more warning')}\n`);
    }
    const listed = said?.list();
    for (const problem of listed?.problems ?? []) process.stderr.write(`${formatSyncProblem(problem, records)}\n`);
    if (listed && listed.notKept > 0) process.stderr.write(`... and ${counted(listed.notKept, 'more problem')}\n`);
    process.stdout.write(`${describeSync(outcome, options.dryRun)}\n`);
    if (outcome.outcome === 'busy') return EXIT_BUSY;
    if (outcome.outcome === 'failed' || outcome.outcome === 'nothing-written') return EXIT_NOTHING_WRITTEN;
    return outcome.outcome === 'rows-skipped' ? EXIT_ROWS_SKIPPED : EXIT_DONE;
  });
}

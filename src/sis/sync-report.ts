import { counted } from '../lib/counted';
import { log } from '../lib/log';
import type { SyncOutcome } from './sync-school';

/** What a sync tells the operator: one log line (the command's and the service's), and the command's summary. */

/** The one line a sync leaves in the log, from the command or the service (naming the district school it synced). */
export function logSync(outcome: SyncOutcome, school?: string): void {
  const fields = {
    school,
    outcome: outcome.outcome,
    mode: outcome.mode,
    durationMs: outcome.durationMs,
    readMs: outcome.readMs,
    records: outcome.records,
    added: outcome.added,
    changed: outcome.changed,
    deleted: outcome.deleted,
    changes: outcome.imported?.changes ?? {},
    duplicates: outcome.duplicates,
    warnings: outcome.warnings,
    problems: outcome.problems,
    requests: outcome.requests,
    notified: outcome.notified,
    ...(outcome.message ? { reason: outcome.message } : {}),
  };
  if (outcome.outcome === 'failed' || outcome.outcome === 'nothing-written') log.warn('sis sync', fields);
  else log.info('sis sync', fields);
}

/**
 * The command's summary: what the import applied (or, dry, would apply) in all and per kind, as the
 * import counted it before writing, so that a dry run and the real run print the same figures.
 */
export function describeSync(outcome: SyncOutcome, dryRun: boolean): string {
  if (outcome.outcome === 'busy') return 'Not synced: another sync is running (on this or another node).';
  if (outcome.outcome === 'failed') return `Sync failed, nothing was written: ${outcome.message}.`;
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const reading = (outcome.readMs / 1000).toFixed(1);
  const read =
    `${counted(outcome.records, 'record')} read in ${counted(outcome.requests, 'request')}, ` +
    `${seconds} s (${reading} s reading)`;
  const said = `${counted(outcome.warnings, 'warning')}, ${counted(outcome.problems, 'problem')}`;
  const twice = outcome.duplicates > 0 ? `; ${sentTwice(outcome)}` : '';
  if (outcome.outcome === 'nothing-written')
    return `Nothing was written: ${outcome.message}; ${said}; ${read}${twice}.`;
  const totals =
    `${outcome.added.toLocaleString('en')} added, ${outcome.changed.toLocaleString('en')} changed, ` +
    `${outcome.deleted.toLocaleString('en')} deleted`;
  const byKind = changesByKind(outcome);
  return (
    `${outcome.mode} sync${dryRun ? ' would apply' : ''}: ${totals}, ${said}; ${read}` +
    `${byKind ? `; by kind: ${byKind}` : ''}${twice}.`
  );
}

/** "2 records sent twice, taken once: users "s3", results "r2"": the records listed, the rest counted. */
function sentTwice(outcome: SyncOutcome): string {
  const more = outcome.duplicates - outcome.duplicated.length;
  const listed = outcome.duplicated.join(', ') + (more > 0 ? ` and ${more.toLocaleString('en')} more` : '');
  return `${counted(outcome.duplicates, 'record')} sent twice, taken once: ${listed}`;
}

/** "students (2 added, 1 changed), classes (1 deleted)": per kind, as the import counted it. */
function changesByKind(outcome: SyncOutcome): string {
  return Object.entries(outcome.imported?.changes ?? {})
    .map(([table, change]) => {
      const parts = (['added', 'changed', 'deleted'] as const)
        .filter((part) => (change?.[part] ?? 0) > 0)
        .map((part) => `${(change?.[part] ?? 0).toLocaleString('en')} ${part}`);
      return parts.length > 0 ? `${table.replace(/_/g, ' ')} (${parts.join(', ')})` : '';
    })
    .filter(Boolean)
    .join(', ');
}

import { log } from '../lib/log';
import type { SyncOutcome } from './sync-school';

/** What a sync tells the operator: one log line (the command's and the service's), and the command's summary. */

/** The one line a sync leaves in the log, from the command or the service. */
export function logSync(outcome: SyncOutcome): void {
  const fields = {
    outcome: outcome.outcome,
    mode: outcome.mode,
    durationMs: outcome.durationMs,
    readMs: outcome.readMs,
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
  const reading = (outcome.readMs / 1000).toFixed(1);
  const read = `${outcome.records} records read in ${outcome.requests} requests, ${seconds} s (${reading} s reading)`;
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

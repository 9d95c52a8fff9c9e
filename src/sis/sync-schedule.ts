import type { SisSettings } from '../config/sis-settings';
import { log } from '../lib/log';
import type { PayloadSealer } from '../lib/payload-sealer';
import type { Store } from '../store/open-store';
import { logSync } from './sync-report';
import { type SyncOutcome, syncSchool } from './sync-school';

/**
 * SIS_SYNC_INTERVAL: the service syncs on its own, a first time soon after it starts and then
 * every interval. Every process of every node runs this schedule; the store's lease lets one of
 * them sync at a time, and the others find it taken and wait for their next turn (no log line).
 * A sync that fails is tried again at the next turn, from the last successful one.
 */
export interface SyncSchedule {
  /** When this process tries next; undefined once stopped. */
  nextRunAt(): string | undefined;
  /** This process's last try and its outcome (`busy`: another node was syncing); undefined before the first. */
  lastAttempt(): { readonly at: string; readonly outcome: string } | undefined;
  /** Stops the schedule; a sync under way is waited for (its one transaction commits or not). */
  stop(): Promise<void>;
}

export interface ScheduleParts {
  readonly defaultCountryCode: string;
  /** Mark notifications for new results (SIS_SYNC_NOTIFY_MARKS=on). */
  readonly notify: { readonly sealer: PayloadSealer; readonly perDevicePerMinute: number } | undefined;
  /** The first sync, this long after the start. */
  readonly firstAfterMs?: number;
  readonly ended?: (outcome: SyncOutcome) => void;
  /** The district school whose sync this is, which its log lines name; none at the deployment's own. */
  readonly school?: string;
}

const FIRST_AFTER_MS = 5_000;

export function startSyncSchedule(store: Store, settings: SisSettings, parts: ScheduleParts): SyncSchedule {
  let next = Date.now() + (parts.firstAfterMs ?? FIRST_AFTER_MS);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let attempt: { at: string; outcome: string } | undefined;
  const run = async () => {
    const at = new Date().toISOString();
    next = Date.now() + settings.intervalMs;
    try {
      const outcome = await syncSchool(store, settings, {
        full: false,
        dryRun: false,
        skipInvalid: false,
        fromIdentifier: false,
        strict: false,
        defaultCountryCode: parts.defaultCountryCode,
        notify: parts.notify,
      });
      if (outcome.outcome !== 'busy') logSync(outcome, parts.school);
      attempt = { at, outcome: outcome.outcome };
      parts.ended?.(outcome);
    } catch (error) {
      attempt = { at, outcome: 'failed' };
      // The store itself failed (the sync's own faults are outcomes): the next turn tries again.
      log.warn('sis sync could not run', {
        school: parts.school,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const plan = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = run().finally(() => {
          running = undefined;
          plan();
        });
      },
      Math.max(0, next - Date.now()),
    );
    timer.unref();
  };
  plan();
  return {
    nextRunAt: () => (stopped ? undefined : new Date(next).toISOString()),
    lastAttempt: () => attempt,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

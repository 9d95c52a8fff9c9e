import { log } from '../../lib/log';
import type { Store } from '../open-store';
import { claimRetentionDay, eraseLeaversDue, type RetentionSettings } from './retention';

export interface RetentionSchedule {
  stop(): Promise<void>;
}

/** How often a process looks whether today's run is still to be done: the day's run is at most this late. */
const LOOK_EVERY_MS = 3_600_000;

/**
 * The retention after leaving, run by the service itself once a day: every process looks each hour
 * (and soon after it starts), and the one whose insert of the day's row succeeds runs it, so that
 * on several nodes on one PostgreSQL store, or several workers on one SQLite file, only one does.
 */
export function startRetentionSchedule(
  store: Store,
  settings: RetentionSettings,
  options: { node: () => string; now: () => Date; firstAfterMs?: number; school?: string },
): RetentionSchedule {
  let running: Promise<void> | undefined;
  let stopped = false;
  const look = async () => {
    const now = options.now();
    const day = now.toISOString().slice(0, 10);
    if (!(await claimRetentionDay(store, day, options.node(), now.toISOString()))) return;
    await eraseLeaversDue(store, settings, now, day);
  };
  const tick = () => {
    if (stopped || running) return;
    running = look()
      .catch((error: unknown) =>
        log.error('retention after leaving failed', {
          school: options.school,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, options.firstAfterMs ?? 60_000);
  const every = setInterval(tick, LOOK_EVERY_MS);
  first.unref();
  every.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}

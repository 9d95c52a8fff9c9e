import { log } from '../lib/log';
import type { SchoolKeeper } from './school-keeper';
import type { SchoolSlot } from './school-slot';

/** How often closed schools are looked at for work of their own: every minute, or the idle time when shorter. */
const VISIT_EVERY_MS = 60_000;
/** The most schools opened in one look, so that a district's schools open spread over time, not all at once. */
const VISITS_PER_LOOK = 5;
/** A school not open for this long is opened for its retention after leaving (run once a day per store). */
const RETENTION_VISIT_AFTER_MS = 23 * 3_600_000;

/**
 * Opens closed schools that have work of their own, when there is room under SCHOOLS_OPEN_MAX and
 * a few at a time: a school closed to make room while its outbox held messages to send (its
 * delivery worker sends them, and it stays open while any is left), and, when
 * RETENTION_AFTER_LEAVING_DAYS is set, a school not open in this process for a day (its retention
 * looks soon after it opens). Each closes again when idle. A school with a SIS sync on a schedule of
 * its own (`schools set SIS_URL=…`) is opened once and then kept open (see school-keeper.ts), so
 * that its schedule runs without waiting for a first request.
 */
export function startSchoolVisits(
  slots: () => Iterable<SchoolSlot>,
  keeper: SchoolKeeper,
  options: {
    readonly retention: boolean;
    readonly idleCloseMs: number;
    readonly syncsOnSchedule: (slot: SchoolSlot) => boolean;
  },
): () => void {
  const due = (slot: SchoolSlot, now: number) =>
    slot.closed &&
    (slot.closedWithUnsent ||
      options.syncsOnSchedule(slot) ||
      (options.retention && (slot.lastOpenedAt === undefined || now - slot.lastOpenedAt >= RETENTION_VISIT_AFTER_MS)));
  const look = () => {
    const now = performance.now();
    let visits = 0;
    for (const slot of slots()) {
      if (visits >= VISITS_PER_LOOK || !keeper.hasRoom) return;
      if (!due(slot, now)) continue;
      visits += 1;
      slot.visit().catch((error: unknown) =>
        log.error('a school opened for its rounds failed to open', {
          school: slot.entry.sourcedId,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    }
  };
  const timer = setInterval(look, Math.min(VISIT_EVERY_MS, options.idleCloseMs));
  timer.unref();
  // The schools that sync on a schedule open at the start, not a minute after it.
  setImmediate(look);
  return () => clearInterval(timer);
}

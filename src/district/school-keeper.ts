import type { DistrictSettings } from '../config/district-settings';
import { log } from '../lib/log';
import { holdsUnsentMessages } from '../store/queries/outbox';
import type { SchoolEntry } from './school-entry';
import type { OpenedSchool, SchoolSlot, SlotKeeper } from './school-slot';

/** A school as the district opens it, with what keeps it open when idle. */
export interface KeptSchool extends OpenedSchool {
  /** It syncs from its SIS on a schedule, which runs only while the school is open: idleness never closes it. */
  readonly syncsOnSchedule: boolean;
}

/** How often idle schools are looked for: a quarter of the idle time, between a quarter second and 30 s. */
function sweepIntervalMs(idleCloseMs: number): number {
  return Math.max(250, Math.min(idleCloseMs / 4, 30_000));
}

function closeFailed(slot: SchoolSlot, error: unknown): void {
  log.error('a school failed to close', {
    school: slot.entry.sourcedId,
    error: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Keeps the district's open schools within SCHOOLS_OPEN_MAX and closes those idle for
 * SCHOOLS_IDLE_CLOSE_SECONDS. A school to open when the bound is reached takes the place of the
 * least recently used open school without calls in flight; when every open school has calls in
 * flight, it waits for one of them to end. An idle school stays open while its outbox holds
 * messages still to send (its delivery worker runs only while it is open) or while it syncs on a
 * schedule; the bound may still close it, and school-visits.ts opens it again when there is room.
 */
export class SchoolKeeper implements SlotKeeper {
  private readonly placed = new Set<SchoolSlot>();
  private waiting: (() => void)[] = [];
  private readonly sweep: NodeJS.Timeout;
  private sweeping = false;
  private stopped = false;

  constructor(
    private readonly settings: DistrictSettings,
    private readonly opener: (entry: SchoolEntry) => Promise<KeptSchool>,
  ) {
    this.sweep = setInterval(() => void this.closeIdle(), sweepIntervalMs(settings.idleCloseMs));
    this.sweep.unref();
  }

  /** How many schools hold a place: open, opening or closing. */
  get openCount(): number {
    return this.placed.size;
  }

  /** Whether a school can open now without closing another. */
  get hasRoom(): boolean {
    return !this.stopped && this.placed.size < this.settings.openMax;
  }

  async open(slot: SchoolSlot): Promise<OpenedSchool> {
    while (this.placed.size >= this.settings.openMax && !this.stopped) {
      const leastRecent = this.leastRecentlyUsedIdle();
      if (leastRecent) await this.makeRoom(leastRecent);
      else await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    if (this.stopped) throw new Error('the service is stopping: no school opens');
    this.placed.add(slot);
    const started = performance.now();
    try {
      const opened = await this.opener(slot.entry);
      // Once the slot is open (its promise settles after this one), an opening waiting for room may close it.
      setImmediate(() => this.wake());
      log.debug('school opened', { school: slot.entry.sourcedId, ms: Math.round(performance.now() - started) });
      return opened;
    } catch (error) {
      this.closed(slot);
      throw error;
    }
  }

  closed(slot: SchoolSlot): void {
    if (this.placed.delete(slot)) this.wake();
  }

  callEnded(): void {
    if (this.waiting.length > 0) this.wake();
  }

  /** Opens no school any more, and lets those waiting for a place fail. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.sweep);
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /** Closes an open school for another; one whose outbox holds messages to send is visited again later. */
  private async makeRoom(slot: SchoolSlot): Promise<void> {
    const opened = slot.opened;
    if (!opened) return;
    const unsent = await holdsUnsentMessages(opened.school.store).catch(() => true);
    // Looked at again after the outbox's answer: a call may have come meanwhile, or another opening closed it.
    if (slot.opened !== opened || slot.inFlight > 0) return;
    await slot.close().catch((error: unknown) => closeFailed(slot, error));
    slot.closedWithUnsent = unsent;
  }

  private leastRecentlyUsedIdle(): SchoolSlot | undefined {
    let found: SchoolSlot | undefined;
    for (const slot of this.placed) {
      if (slot.opened && slot.inFlight === 0 && (!found || slot.lastUsedAt < found.lastUsedAt)) found = slot;
    }
    return found;
  }

  private async closeIdle(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const slot of [...this.placed]) {
        const opened = slot.opened as KeptSchool | undefined;
        if (!opened || !this.idle(slot) || (await this.holdsWork(opened))) continue;
        // Looked at again after the outbox's answer: a call may have come meanwhile.
        if (slot.opened === opened && this.idle(slot)) {
          await slot.close().catch((error: unknown) => closeFailed(slot, error));
          log.debug('school closed, idle', { school: slot.entry.sourcedId });
        }
      }
    } finally {
      this.sweeping = false;
    }
  }

  private idle(slot: SchoolSlot): boolean {
    return slot.inFlight === 0 && performance.now() - slot.lastUsedAt >= this.settings.idleCloseMs;
  }

  private async holdsWork(opened: KeptSchool): Promise<boolean> {
    if (opened.syncsOnSchedule) return true;
    // A store that cannot answer keeps its school open: closing it would not make it answer.
    return holdsUnsentMessages(opened.school.store).catch(() => true);
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/service-config';
import type { PayloadSealer } from '../lib/payload-sealer';
import { serviceVersion } from '../lib/package-info';
import { type SyncSchedule, startSyncSchedule } from '../sis/sync-schedule';
import type { Store } from '../store/open-store';
import { type RetentionSchedule, startRetentionSchedule } from '../store/privacy/retention-schedule';
import { type Presence, startPresence } from '../status/presence';

/** What the school's rounds run with. */
export interface RoundsParts {
  readonly store: Store;
  readonly config: Config;
  readonly sealer: PayloadSealer;
  readonly clock: () => Date;
  /** This machine's name and port, known once the server listens. */
  readonly node: () => string;
  /** When this process started, as its row among the processes serving says. */
  readonly startedAt: Date;
  /** Tells the delivery worker that the outbox holds new messages. */
  readonly outboxChanged: () => void;
  /** How long after serve() the first scheduled SIS sync runs, and the retention first looks. */
  readonly firstSyncAfterMs?: number;
  readonly firstRetentionAfterMs?: number;
}

/** When the school syncs next, and how its last try went, for the figures. */
export interface SyncFigures {
  readonly nextRunAt: string | undefined;
  readonly lastAttempt: { at: string; outcome: string } | undefined;
}

/**
 * The work a school does on its own once it answers calls: its row among the processes serving
 * from its store, the retention after leaving (RETENTION_AFTER_LEAVING_DAYS) and the scheduled SIS
 * sync (SIS_SYNC_INTERVAL). None of them runs before serve(), so a school that fails to start
 * leaves no row and starts no sync.
 */
export class SchoolRounds {
  private presenceRow: Presence | undefined;
  private schedule: SyncSchedule | undefined;
  private retention: RetentionSchedule | undefined;
  private syncing: Promise<void> | undefined;

  constructor(private readonly parts: RoundsParts) {}

  get presence(): Presence | undefined {
    return this.presenceRow;
  }

  syncFigures(): SyncFigures {
    return { nextRunAt: this.schedule?.nextRunAt(), lastAttempt: this.schedule?.lastAttempt() };
  }

  start(): void {
    const { store, config, clock, node } = this.parts;
    this.presenceRow = startPresence(store, {
      node: node(),
      version: serviceVersion(),
      startedAt: this.parts.startedAt,
    });
    if (config.retentionAfterLeavingDays !== undefined) {
      const retentionSettings = {
        afterLeavingDays: config.retentionAfterLeavingDays,
        defaultCountryCode: config.notifications.defaultCountryCode,
      };
      this.retention = startRetentionSchedule(store, retentionSettings, {
        node,
        now: clock,
        firstAfterMs: this.parts.firstRetentionAfterMs,
        school: config.school,
      });
    }
    if (config.sis.url && config.sis.intervalMs > 0) this.schedule = this.startSyncSchedule();
  }

  private startSyncSchedule(): SyncSchedule {
    const { store, config, sealer } = this.parts;
    return startSyncSchedule(store, config.sis, {
      defaultCountryCode: config.notifications.defaultCountryCode,
      notify: config.sis.notifyMarks
        ? { sealer, perDevicePerMinute: config.notifications.pushPerDevicePerMinute }
        : undefined,
      firstAfterMs: this.parts.firstSyncAfterMs,
      school: config.school,
      // New marks' notifications are in the outbox: the worker looks now rather than at its next poll.
      ended: (outcome) => {
        if (outcome.notified > 0) this.parts.outboxChanged();
      },
    });
  }

  /** Starts nothing new: the schedules stop, and a retention run under way ends. */
  async stopIntake(): Promise<void> {
    // A sync under way may end with its one transaction (or its failure) before the store closes.
    this.syncing = this.schedule?.stop();
    await this.retention?.stop();
  }

  /** Waits for a sync under way until `deadline` (a Date.now() time). */
  async drain(deadline: number | undefined): Promise<void> {
    // Past the deadline it is abandoned: closing the store rolls it back whole, and its lease runs out.
    if (this.syncing && deadline === undefined) await this.syncing;
    else if (this.syncing && deadline !== undefined) {
      const waited = new AbortController();
      const limit = sleep(Math.max(0, deadline - Date.now()), undefined, { signal: waited.signal }).catch(() => {});
      await Promise.race([this.syncing, limit]);
      waited.abort();
    }
  }

  /**
   * Leaves the processes serving from the store: the last write the school makes, so that a row
   * gone tells `schools remove` that this process has let go of the store.
   */
  async leave(): Promise<void> {
    await this.presenceRow?.leave();
  }
}

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Store } from '../store/open-store';
import { releaseSyncLease, takeSyncLease } from '../store/queries/sis-sync';
import { SyncFailure } from './sync-failure';

/** The lease runs out this long after its last renewal; a sync renews it as it reads each page. */
export const SYNC_LEASE_MS = 5 * 60_000;
const RENEW_EVERY_MS = 30_000;

/** The store's lease that lets one sync run at a time across every node sharing the store. */
export class SyncLease {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  private renewedAt = 0;

  constructor(
    private readonly store: Store,
    private readonly now: () => Date,
  ) {}

  /** Takes the lease at `at`; false when another sync holds it. */
  async take(at: Date): Promise<boolean> {
    this.renewedAt = at.getTime();
    return takeSyncLease(this.store, this.holder, at, SYNC_LEASE_MS);
  }

  /**
   * Renewed as pages arrive (a sync waiting on the provider is alive); a lease lost means another
   * node syncs now, and this sync fails.
   */
  async stillHeld(): Promise<void> {
    if (this.now().getTime() - this.renewedAt < RENEW_EVERY_MS) return;
    this.renewedAt = this.now().getTime();
    if (!(await takeSyncLease(this.store, this.holder, this.now(), SYNC_LEASE_MS))) {
      throw new SyncFailure('the sync lease was lost');
    }
  }

  release(): Promise<void> {
    return releaseSyncLease(this.store, this.holder);
  }
}

import { log } from '../lib/log';
import {
  addComparisons,
  type ComparedCalls,
  type CountedDifference,
  type FoundDifference,
  pruneComparisonsBefore,
} from '../store/queries/shadow-comparisons';
import type { Session } from '../store/session';
import type { ComparisonOutcome, ComparisonSink } from './comparison-outcome';

const DAY_MS = 86_400_000;
/** Old days are deleted at most this often: pruning is a chore, not a duty of every write. */
const PRUNE_EVERY_MS = 3_600_000;
/** Distinct paths held between two writes; past it a path's count is lost (its comparison's is not). */
const MAX_HELD_PATHS = 10_000;

export interface LedgerSettings {
  readonly keepDays: number;
  /** How often the counts held in memory are added to the store's. */
  readonly flushMs: number;
}

/**
 * Keeps what came of each comparison: counted in memory, and added to the store's figures every
 * SHADOW_FLUSH_MS in one transaction (a write a comparison would cost the next caller the time
 * of a transaction on a busy store). Every process of every node adds to the same rows, which the
 * report, the status page and the metrics read. Days older than SHADOW_KEEP_DAYS are deleted when
 * that is due. A store that fails loses the figures of one write, logged, never a call.
 */
export class ShadowLedger implements ComparisonSink {
  private lastPrune = 0;
  private calls = new Map<string, ComparedCalls>();
  private differences = new Map<string, CountedDifference>();
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Session,
    private readonly settings: LedgerSettings,
    private readonly clock: () => Date,
  ) {
    this.timer = setInterval(() => void this.flush(), settings.flushMs);
    this.timer.unref();
  }

  async record(
    operation: string,
    binding: string,
    outcome: ComparisonOutcome,
    differences: readonly FoundDifference[] = [],
  ): Promise<void> {
    const day = this.clock().toISOString().slice(0, 10);
    const key = `${day} ${operation} ${binding}`;
    const calls = this.calls.get(`${key} ${outcome}`);
    this.calls.set(`${key} ${outcome}`, { day, operation, binding, outcome, count: (calls?.count ?? 0) + 1 });
    for (const difference of differences) {
      const pathKey = `${key} ${difference.noisy} ${difference.path}`;
      const known = this.differences.get(pathKey);
      if (known) this.differences.set(pathKey, { ...known, count: known.count + 1 });
      else if (this.differences.size < MAX_HELD_PATHS) {
        this.differences.set(pathKey, { day, operation, binding, ...difference, count: 1 });
      }
    }
  }

  /** Adds what is held to the store (after any write still under way), and prunes when due. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const calls = [...this.calls.values()];
    const differences = [...this.differences.values()];
    this.calls = new Map();
    this.differences = new Map();
    const now = this.clock().getTime();
    try {
      if (calls.length > 0) await addComparisons(this.store, calls, differences);
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        const firstKept = new Date(now - this.settings.keepDays * DAY_MS).toISOString().slice(0, 10);
        await pruneComparisonsBefore(this.store, firstKept);
      }
    } catch (error) {
      log.error('shadow comparisons not recorded', { comparisons: calls.length, error: String(error) });
    }
  }
}

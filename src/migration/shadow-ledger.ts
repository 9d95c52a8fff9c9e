import { log } from '../lib/log';
import { type FoundDifference, pruneComparisonsBefore, recordComparison } from '../store/queries/shadow-comparisons';
import type { Session } from '../store/session';

/** What came of one call's comparison. */
export type ComparisonOutcome =
  /** The two answers are the same infoset. */
  | 'identical'
  /** They differ at a path that is not noise. */
  | 'different'
  /** They differ only where the legacy service differs from itself, or where the operator said to ignore. */
  | 'noisy'
  /** The legacy service gave no answer (down, too slow, too large). */
  | 'legacy-error'
  /** Too many comparisons were pending: this one was not made (the call was answered). */
  | 'dropped'
  /** A write in canary: it is never sent to the legacy service, so there is nothing to compare. */
  | 'not-compared';

export const COMPARISON_OUTCOMES: readonly ComparisonOutcome[] = [
  'identical',
  'different',
  'noisy',
  'legacy-error',
  'dropped',
  'not-compared',
];

const DAY_MS = 86_400_000;
/** Old days are deleted at most this often: pruning is a chore, not a duty of every comparison. */
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Writes what came of each comparison to the store, where the report, the status page and the
 * metrics read it (every process of every node adds to the same figures), and deletes the days
 * older than SHADOW_KEEP_DAYS when that is due. A store that fails loses a figure, logged, never
 * the call: every write here happens after the caller was answered.
 */
export class ShadowLedger {
  private lastPrune = 0;

  constructor(
    private readonly store: Session,
    private readonly keepDays: number,
    private readonly clock: () => Date,
  ) {}

  async record(
    operation: string,
    binding: string,
    outcome: ComparisonOutcome,
    differences: readonly FoundDifference[] = [],
  ): Promise<void> {
    const now = this.clock();
    try {
      await recordComparison(
        this.store,
        { day: now.toISOString().slice(0, 10), operation, binding, outcome },
        differences,
      );
      if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now.getTime();
        await pruneComparisonsBefore(
          this.store,
          new Date(now.getTime() - this.keepDays * DAY_MS).toISOString().slice(0, 10),
        );
      }
    } catch (error) {
      log.error('shadow comparison not recorded', { operation, binding, error: String(error) });
    }
  }
}

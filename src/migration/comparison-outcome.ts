import type { FoundDifference } from '../store/queries/shadow-comparisons';

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
  /** An answer held more than an answer may (deeper, more elements): it was not compared. */
  | 'over-budget'
  /** A write in canary: it is never sent to the legacy service, so there is nothing to compare. */
  | 'not-compared';

/** Where comparisons' outcomes go: the store (ShadowLedger), or a replay's tally in memory. */
export interface ComparisonSink {
  record(
    operation: string,
    binding: string,
    outcome: ComparisonOutcome,
    differences?: readonly FoundDifference[],
  ): Promise<void>;
  /** Writes out what is held; the sink is not used afterwards. */
  close?(): Promise<void>;
}

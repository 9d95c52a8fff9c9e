import { log } from '../lib/log';
import type { Answer } from './answer';
import { answerDifferences } from './answer';
import { keptExample, maskedExample } from './masking';
import { NoiseRegister } from './noise';
import type { ComparisonOutcome, ComparisonSink } from './comparison-outcome';
import type { IgnoredPath } from '../config/migration-settings';
import type { RequestBudgets } from '../config/request-budgets';
import { OverBudget } from './infoset';

export interface ComparisonSettings {
  readonly noiseSample: number;
  readonly maxPending: number;
  readonly ignored: readonly IgnoredPath[];
  readonly answerBudgets: RequestBudgets;
  /**
   * Whether an operation's answers show no one's records (HelloWorld, the note types): their
   * examples are kept as they are. Unset: every operation's examples are masked.
   */
  readonly showsNoRecords?: (operation: string) => boolean;
}

/** Which calls a comparison is of: the figures are kept per operation and binding. */
export interface Subject {
  readonly operation: string;
  readonly binding: string;
}

/**
 * Compares this service's answers with the legacy service's, off the caller's path: each
 * comparison is a task started once the caller's answer is on its way, and at most
 * SHADOW_MAX_PENDING run at once. Beyond that a comparison is dropped and counted, never the call.
 */
export class Comparisons {
  private pending = 0;
  private sampled = 0;
  private readonly noise: NoiseRegister;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly settings: ComparisonSettings,
    private readonly ledger: ComparisonSink,
  ) {
    this.noise = new NoiseRegister(settings.ignored);
  }

  /** Runs `task` when there is room for it (true); otherwise counts the comparison as dropped (false). */
  run(subject: Subject, task: () => Promise<void>): boolean {
    if (this.pending >= this.settings.maxPending) {
      void this.ledger.record(subject.operation, subject.binding, 'dropped');
      return false;
    }
    this.pending++;
    // Started on the next turn of the loop, so that the caller's answer is on its way first.
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => log.error('shadow comparison failed', { ...subject, error: String(error) }))
      .finally(() => {
        this.pending--;
        if (this.pending === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    return true;
  }

  /** Whether this call is one of the sample asked of the legacy service twice (never a write: it would act twice). */
  sampleForNoise(writes: boolean): boolean {
    if (writes || this.settings.noiseSample === 0) return false;
    this.sampled = (this.sampled + 1) % this.settings.noiseSample;
    return this.sampled === 0;
  }

  /** Learns the legacy service's noise from its two answers to one call. */
  learnNoise(subject: Subject, first: Answer, second: Answer): void {
    const between = answerDifferences(first, second, this.settings.answerBudgets);
    if (!(between instanceof OverBudget)) this.noise.learn(subject.operation, subject.binding, between);
  }

  /**
   * Compares the two answers and records the outcome, with each differing path, noise apart; an
   * answer that holds more than an answer may is recorded as over budget, uncompared.
   */
  judge(subject: Subject, local: Answer, legacy: Answer): Promise<void> {
    const masked = !this.settings.showsNoRecords?.(subject.operation);
    const between = answerDifferences(local, legacy, this.settings.answerBudgets);
    if (between instanceof OverBudget) return this.ledger.record(subject.operation, subject.binding, 'over-budget');
    const found = between.map((difference) => ({
      path: difference.path,
      noisy: this.noise.isNoise(subject.operation, subject.binding, difference.path),
      localExample: masked ? maskedExample(difference.path, difference.local) : keptExample(difference.local),
      legacyExample: masked ? maskedExample(difference.path, difference.legacy) : keptExample(difference.legacy),
    }));
    const outcome: ComparisonOutcome =
      found.length === 0 ? 'identical' : found.every((difference) => difference.noisy) ? 'noisy' : 'different';
    return this.ledger.record(subject.operation, subject.binding, outcome, found);
  }

  /**
   * Records a comparison that was not made: the legacy service did not answer, a write was not sent
   * to it, or the caller had as many calls waiting for it as it may.
   */
  count(subject: Subject, outcome: 'legacy-error' | 'not-compared' | 'dropped'): Promise<void> {
    return this.ledger.record(subject.operation, subject.binding, outcome);
  }

  /** Resolves once no comparison is pending: the service waits for them as it stops. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits for the pending comparisons and writes out their outcomes. */
  async close(): Promise<void> {
    await this.idle();
    await this.ledger.close?.();
  }
}

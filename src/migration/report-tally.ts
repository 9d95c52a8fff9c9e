import type { FoundDifference } from '../store/queries/shadow-comparisons';
import type { ComparisonOutcome, ComparisonSink } from './comparison-outcome';
import { addOutcome, noOutcomes, type ComparisonFigures, type PathFigures, type ShadowReport } from './shadow-report';

/** The outcomes of a replay's comparisons, kept in memory and given as the same report the store's figures give. */
export class ReportTally implements ComparisonSink {
  private readonly operations = new Map<string, ComparisonFigures>();
  private readonly differences = new Map<string, PathFigures>();

  async record(
    operation: string,
    binding: string,
    outcome: ComparisonOutcome,
    differences: readonly FoundDifference[] = [],
  ): Promise<void> {
    const key = `${operation} ${binding}`;
    const figures = this.operations.get(key) ?? { operation, binding, ...noOutcomes() };
    this.operations.set(key, figures);
    addOutcome(figures, outcome, 1);
    for (const difference of differences) {
      const pathKey = `${key} ${difference.path} ${difference.noisy}`;
      const known = this.differences.get(pathKey);
      if (known) known.count += 1;
      else this.differences.set(pathKey, { operation, binding, ...difference, count: 1 });
    }
  }

  report(): ShadowReport {
    return {
      since: undefined,
      operations: [...this.operations.values()],
      differences: [...this.differences.values()].sort((a, b) => b.count - a.count),
    };
  }
}

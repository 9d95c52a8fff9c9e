import { comparisonCounts, differenceRows, type ReportFilter } from '../store/queries/shadow-comparisons';
import type { Session } from '../store/session';

/** How an operation's comparisons came out (on one binding, or all together). */
export interface OutcomeCounts {
  /** identical + different + noisy: the calls whose two answers were compared. */
  compared: number;
  identical: number;
  different: number;
  noisy: number;
  legacyErrors: number;
  dropped: number;
  notCompared: number;
  overBudget: number;
}

/** One operation on one binding: how its comparisons came out. */
export interface ComparisonFigures extends OutcomeCounts {
  readonly operation: string;
  readonly binding: string;
}

export const noOutcomes = (): OutcomeCounts => ({
  compared: 0,
  identical: 0,
  different: 0,
  noisy: 0,
  legacyErrors: 0,
  dropped: 0,
  notCompared: 0,
  overBudget: 0,
});

/** A field path where the answers differed, with how often and one example pair (personal data masked). */
export interface PathFigures {
  readonly operation: string;
  readonly binding: string;
  readonly path: string;
  readonly noisy: boolean;
  count: number;
  readonly localExample: string;
  readonly legacyExample: string;
}

export interface ShadowReport {
  readonly since: string | undefined;
  readonly operations: ComparisonFigures[];
  readonly differences: PathFigures[];
}

const FIELD: Record<string, Exclude<keyof OutcomeCounts, 'compared'> | undefined> = {
  identical: 'identical',
  different: 'different',
  noisy: 'noisy',
  'legacy-error': 'legacyErrors',
  dropped: 'dropped',
  'not-compared': 'notCompared',
  'over-budget': 'overBudget',
};

/** Adds `count` comparisons of one outcome (as the store names it) to the counts. */
export function addOutcome(counts: OutcomeCounts, outcome: string, count: number): void {
  const field = FIELD[outcome];
  if (field) counts[field] += count;
  if (outcome === 'identical' || outcome === 'different' || outcome === 'noisy') counts.compared += count;
}

/** The report since a day (every kept day without one), for one operation or all. */
export async function shadowReport(store: Session, filter: ReportFilter): Promise<ShadowReport> {
  const [counts, rows] = await Promise.all([comparisonCounts(store, filter), differenceRows(store, filter)]);
  const operations = new Map<string, ComparisonFigures>();
  for (const row of counts) {
    const key = `${row.operation} ${row.binding}`;
    let figures = operations.get(key);
    if (!figures) {
      figures = { operation: row.operation, binding: row.binding, ...noOutcomes() };
      operations.set(key, figures);
    }
    addOutcome(figures, row.outcome, Number(row.count));
  }
  const differences = new Map<string, PathFigures>();
  for (const row of rows) {
    const key = `${row.operation} ${row.binding} ${row.path} ${row.noisy}`;
    const known = differences.get(key);
    if (known) known.count += row.count;
    else {
      differences.set(key, {
        operation: row.operation,
        binding: row.binding,
        path: row.path,
        noisy: row.noisy === 1,
        count: row.count,
        localExample: row.local_example,
        legacyExample: row.legacy_example,
      });
    }
  }
  return {
    since: filter.since,
    operations: [...operations.values()],
    differences: [...differences.values()].sort((a, b) => b.count - a.count),
  };
}

const COLUMNS = [
  ...['operation', 'binding', 'compared', 'identical', 'different'],
  ...['noisy', 'legacy errors', 'dropped', 'not compared', 'over budget'],
];

/** The report as the command prints it: a table per operation and binding, then the differing paths. */
export function reportText(report: ShadowReport): string {
  const lines = [`Comparisons with the legacy service${report.since ? ` since ${report.since}` : ''}:`];
  if (report.operations.length === 0) return `${lines[0]}\n  none yet.\n`;
  const table = [
    COLUMNS,
    ...report.operations.map((row) => [
      row.operation,
      row.binding,
      String(row.compared),
      String(row.identical),
      String(row.different),
      String(row.noisy),
      String(row.legacyErrors),
      String(row.dropped),
      String(row.notCompared),
      String(row.overBudget),
    ]),
  ];
  const widths = COLUMNS.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  for (const row of table)
    lines.push(`  ${row.map((cell, column) => cell.padEnd(widths[column])).join('  ')}`.trimEnd());
  for (const noisy of [false, true]) {
    const paths = report.differences.filter((difference) => difference.noisy === noisy);
    if (paths.length === 0) continue;
    lines.push('', noisy ? 'Noise (the legacy service differs from itself there):' : 'Differences:');
    for (const path of paths) {
      lines.push(`  ${path.operation} ${path.binding} ${path.path}: ${path.count}`);
      lines.push(
        `    here:   ${JSON.stringify(path.localExample)}`,
        `    legacy: ${JSON.stringify(path.legacyExample)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

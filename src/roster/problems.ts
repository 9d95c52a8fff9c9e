import { escapeControlCharacters } from '../lib/control-characters';

/**
 * What is wrong with a bundle, each problem at its file, line and column (the field's position in
 * the row, 1 for the first) with the rule it breaks. Problems past MAX_KEPT are counted but not
 * kept, so a file of garbage cannot fill the memory.
 */
export type Rule =
  | 'bad-file'
  | 'missing-column'
  | 'missing-value'
  | 'bad-date'
  | 'bad-number'
  | 'unknown-value'
  | 'unknown-reference'
  | 'duplicate-sourcedId'
  | 'too-long'
  | 'id-clash'
  | 'depends-on-invalid';

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly rule: Rule;
  readonly message: string;
}

const MAX_KEPT = 10_000;
const MAX_ROWS = 1_000_000;

export class Problems {
  private readonly kept: Problem[] = [];
  private total = 0;
  /** Problems that stop the whole import even with --skip-invalid: the file itself cannot be read. */
  private fatal = 0;
  /** The rows with a problem, each once (up to a bound: past it rows are counted by problem). */
  private readonly rows = new Set<string>();
  private rowsPastBound = 0;

  add(problem: Problem): void {
    this.total += 1;
    const row = `${problem.file}:${problem.line}`;
    if (this.rows.size < MAX_ROWS) this.rows.add(row);
    else if (!this.rows.has(row)) this.rowsPastBound += 1;
    if (problem.rule === 'bad-file' || problem.rule === 'missing-column') this.fatal += 1;
    if (this.kept.length < MAX_KEPT) this.kept.push(problem);
  }

  get count(): number {
    return this.total;
  }

  /** How many rows have a problem: the rows an import with --skip-invalid leaves out. */
  get rowCount(): number {
    return this.rows.size + this.rowsPastBound;
  }

  get hasFatal(): boolean {
    return this.fatal > 0;
  }

  /** The kept problems, and how many more there were. */
  list(): { problems: readonly Problem[]; notKept: number } {
    return { problems: this.kept, notKept: this.total - this.kept.length };
  }
}

/** One line, whatever the bundle's names and cells hold: control characters are shown escaped. */
export function formatProblem(problem: Problem): string {
  const { file, line, column, rule, message } = problem;
  return escapeControlCharacters(`${file}:${line}:${column}: ${rule}: ${message}`);
}

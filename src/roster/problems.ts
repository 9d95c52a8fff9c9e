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

/** What a warning says the import did (docs/import.md lists each with an example). */
export type WarningKind =
  | 'section-from-class-code'
  | 'section-from-grade'
  | 'section-of-its-own'
  | 'no-class-section'
  | 'class-in-several-sections'
  | 'year-from-terms'
  | 'grade-unknown'
  | 'header-case'
  | 'oneroster-1-0-header'
  | 'empty-file'
  | 'extra-fields'
  | 'columns-not-read'
  | 'manifest'
  | 'rows-skipped'
  | 'columns-not-read'
  | 'other-schools'
  | 'text-score-unmapped';

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Under --strict, a warning is a problem of its kind. */
  readonly rule: Rule | WarningKind;
  readonly message: string;
}

/**
 * What the import inferred or read past: never a reason to refuse a row (unless --strict makes
 * warnings problems), always said, at the row it concerns, with its kind.
 */
export interface Warning {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly kind: WarningKind;
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
  private readonly keptWarnings: Warning[] = [];
  private readonly keptNotes: Warning[] = [];
  private warningTotal = 0;

  /** --strict: warnings are problems. */
  constructor(private readonly strict = false) {}

  warn(warning: Warning): void {
    if (this.strict) {
      const { kind, ...rest } = warning;
      this.add({ ...rest, rule: kind });
      return;
    }
    this.warningTotal += 1;
    if (this.keptWarnings.length < MAX_KEPT) this.keptWarnings.push(warning);
  }

  /** A note: said once, neither a warning nor a problem, even under --strict. */
  note(note: Warning): void {
    if (this.keptNotes.length < MAX_KEPT) this.keptNotes.push(note);
  }

  notes(): readonly Warning[] {
    return this.keptNotes;
  }

  get warningCount(): number {
    return this.warningTotal;
  }

  /** The kept warnings, and how many more there were. */
  warnings(): { warnings: readonly Warning[]; notKept: number } {
    return { warnings: this.keptWarnings, notKept: this.warningTotal - this.keptWarnings.length };
  }

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

export function formatNote(note: Warning): string {
  return `${note.file}:${note.line}:${note.column}: note ${note.kind}: ${note.message}`;
}

export function formatWarning(warning: Warning): string {
  return `${warning.file}:${warning.line}:${warning.column}: warning ${warning.kind}: ${warning.message}`;
}

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
  | 'bad-character'
  | 'id-clash'
  | 'depends-on-invalid'
  | 'bulk-of-nothing';

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
  | 'not-kept'
  | 'phone-kept-as-written'
  | 'oneroster-1-0-header'
  | 'oneroster-1-0-enabled-user'
  | 'oneroster-1-0-status'
  | 'school-year-from-end-date'
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

/** Why --skip-invalid cannot leave out a problem of the whole file: it is no row to leave out. */
const UNSKIPPABLE: Partial<Record<Rule | WarningKind, string>> = {
  'bad-file': 'the file cannot be read (or is missing), so its rows cannot be told apart to leave out',
  'missing-column': 'the header lacks a column every row needs, so no row of the file can be read',
};

/** A problem --skip-invalid cannot leave out, with why. */
export interface Unskippable {
  readonly problem: Problem;
  readonly reason: string;
}

const MAX_KEPT = 10_000;
const MAX_ROWS = 1_000_000;

export class Problems {
  private readonly kept: Problem[] = [];
  private total = 0;
  /** Problems that stop the whole import even with --skip-invalid (a file that cannot be read ...), with why. */
  private fatal = 0;
  private readonly keptFatal: Unskippable[] = [];
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

  /**
   * `unskippable`: why --skip-invalid cannot leave the problem out (the import then writes nothing);
   * a file that cannot be read and a header without a required column are such problems anyway.
   */
  add(problem: Problem, unskippable = UNSKIPPABLE[problem.rule]): void {
    this.total += 1;
    const row = `${problem.file}:${problem.line}`;
    if (this.rows.size < MAX_ROWS) this.rows.add(row);
    else if (!this.rows.has(row)) this.rowsPastBound += 1;
    if (unskippable !== undefined) {
      this.fatal += 1;
      if (this.keptFatal.length < MAX_KEPT) this.keptFatal.push({ problem, reason: unskippable });
    }
    if (this.kept.length < MAX_KEPT) this.kept.push(problem);
  }

  /** The problems --skip-invalid cannot leave out, with why (the first MAX_KEPT). */
  unskippable(): readonly Unskippable[] {
    return this.keptFatal;
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

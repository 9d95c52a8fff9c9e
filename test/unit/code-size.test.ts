import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  lineCount,
  MAX_FILE_LINES,
  MAX_FUNCTION_LINES,
  measureFunctions,
  type SizeOffence,
  sizeOffences,
  sizeProblems,
} from '../../scripts/lint/code-size';

/** A function of `lines` lines in all, its body filled with statements. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, index) => `  const v${index} = ${index};`);
  return [`export function ${name}(): void {`, ...body, '}'].join('\n');
}

/** A file of `lines` lines that holds no function. */
const plainFile = (lines: number) => `${Array.from({ length: lines }, (_, index) => `// ${index}`).join('\n')}\n`;

/** Writes the files (paths relative to a src/ folder) and measures each one. */
function offencesOf(files: Record<string, string>): SizeOffence[] {
  const root = mkdtempSync(join(tmpdir(), 'code-size-'));
  try {
    return Object.entries(files).flatMap(([file, text]) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
      return sizeOffences(join(root, file), file);
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the size check', () => {
  test('measures every kind of function from its first line to its last, under the name it is found by', () => {
    const source = [
      'export function declared(a: number): number {', // 1
      '  const inner = (b: number) =>', // 2
      '    b + 1;', // 3
      '  return inner(a);', // 4
      '}', // 5
      'class Holder {', // 6
      '  constructor() {}', // 7
      '  method(): void {', // 8
      '    return;', // 9
      '  }', // 10
      '  get size(): number { return 1; }', // 11
      '}', // 12
      'const expressed = function () {', // 13
      '  return 2;', // 14
      '};', // 15
      'const table = { entry: () => 3 };', // 16
      '[1].map((x) => x);', // 17
      'declare function bodiless(): void;', // 18
    ].join('\n');
    expect(measureFunctions(source)).toEqual([
      { name: 'declared', line: 1, lines: 5 },
      { name: 'inner', line: 2, lines: 2 },
      { name: 'constructor', line: 7, lines: 1 },
      { name: 'method', line: 8, lines: 3 },
      { name: 'size', line: 11, lines: 1 },
      { name: 'expressed', line: 13, lines: 3 },
      { name: 'entry', line: 16, lines: 1 },
      { name: '(anonymous)', line: 17, lines: 1 },
    ]);
  });

  test('counts a file by its lines, a final line break starting none', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount(plainFile(MAX_FILE_LINES))).toBe(MAX_FILE_LINES);
  });

  test('reports a file over the limit and a function over the limit, and passes those at it', () => {
    const offences = offencesOf({
      'access/at-limit.ts': plainFile(MAX_FILE_LINES),
      'access/over-limit.ts': plainFile(MAX_FILE_LINES + 1),
      'domain/functions.ts': [functionOf('fits', MAX_FUNCTION_LINES), functionOf('tooLong', MAX_FUNCTION_LINES + 1)]
        .map((text) => `${text}\n`)
        .join(''),
    });
    expect(offences.map((offence) => offence.report)).toEqual([
      `access/over-limit.ts (${MAX_FILE_LINES + 1} lines)`,
      `domain/functions.ts:${MAX_FUNCTION_LINES + 1} tooLong (${MAX_FUNCTION_LINES + 1} lines)`,
    ]);
    expect(offences[1]).toMatchObject({ file: 'domain/functions.ts', function: 'tooLong' });
  });

  test('leaves the generated contract types whole, and lets a migration be one long function', () => {
    const longFunction = functionOf('up', MAX_FUNCTION_LINES + 20);
    expect(
      offencesOf({
        'contract/operation-types.ts': plainFile(MAX_FILE_LINES + 100),
        'store/migrations/099-example.ts': longFunction,
      }),
    ).toEqual([]);
    expect(offencesOf({ 'store/not-a-migration.ts': longFunction })).toHaveLength(1);
    expect(offencesOf({ 'store/migrations/099-example.ts': plainFile(MAX_FILE_LINES + 1) })).toHaveLength(1);
  });

  test('refuses every offender, files and functions alike, under one heading, and says nothing when none', () => {
    const offences: SizeOffence[] = [
      { file: 'a.ts', function: 'long', report: 'a.ts:1 long (90 lines)' },
      { file: 'b.ts', report: 'b.ts (401 lines)' },
    ];
    expect(sizeProblems(offences)).toEqual([
      `Files over ${MAX_FILE_LINES} lines, functions over ${MAX_FUNCTION_LINES} lines (split them):`,
      '  a.ts:1 long (90 lines)',
      '  b.ts (401 lines)',
    ]);
    expect(sizeProblems([])).toEqual([]);
  });
});

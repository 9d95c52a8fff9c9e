import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The sizes a reader can hold in their head: no source file of src/ over MAX_FILE_LINES lines and
 * no function over MAX_FUNCTION_LINES lines, counted from the line it starts on to the line it
 * ends on. A function holds the functions written inside it, so a long callback makes its caller
 * long too: the reader reads both at once.
 */

/** The longest source file of src/, in lines. */
export const MAX_FILE_LINES = 400;

/** The longest function, in lines. */
export const MAX_FUNCTION_LINES = 80;

/** Files a generator writes (paths relative to src/): nobody reads them to change them. */
export const GENERATED_FILES: readonly string[] = [
  // `npm run contract:types` writes it from wsdl/typed/; a test fails while it is stale.
  'contract/operation-types.ts',
];

/**
 * Folders (relative to src/) whose functions may be long: a store migration is one list of
 * statements, written once and never changed after it has run anywhere.
 */
export const LONG_FUNCTION_FOLDERS: readonly string[] = ['store/migrations/'];

/** A function of a file, by the name a reader finds it under, and its extent in lines. */
export interface MeasuredFunction {
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a function is found under: its own, the variable, property or class member holding it. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  const holder = node.parent;
  if (
    (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) &&
    !ts.isComputedPropertyName(holder.name)
  ) {
    return holder.name.getText();
  }
  return '(anonymous)';
}

/** Every function of a TypeScript source, with the line it starts on (from 1) and its length in lines. */
export function measureFunctions(source: string, fileName = 'source.ts'): MeasuredFunction[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const measured: MeasuredFunction[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      measured.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return measured;
}

/** The number of lines of a text, a final line break not starting another. */
export function lineCount(source: string): number {
  if (source === '') return 0;
  return source.replace(/\n$/, '').split('\n').length;
}

/** A file or function over its limit: the file, the function's name when it is one, and the line that says so. */
export interface SizeOffence {
  readonly file: string;
  readonly function?: string;
  readonly report: string;
}

/**
 * Each file of src/ (`file` relative to it) and each function over its limit, apart from generated
 * files and the functions of migrations.
 */
export function sizeOffences(path: string, file: string): SizeOffence[] {
  if (GENERATED_FILES.includes(file)) return [];
  const source = readFileSync(path, 'utf8');
  const offences: SizeOffence[] = [];
  const lines = lineCount(source);
  if (lines > MAX_FILE_LINES) offences.push({ file, report: `${file} (${lines} lines)` });
  if (LONG_FUNCTION_FOLDERS.some((folder) => file.startsWith(folder))) return offences;
  for (const measured of measureFunctions(source, path)) {
    if (measured.lines <= MAX_FUNCTION_LINES) continue;
    const report = `${file}:${measured.line} ${measured.name} (${measured.lines} lines)`;
    offences.push({ file, function: measured.name, report });
  }
  return offences;
}

/** The problems to print: every offence, under one heading; none when nothing is over its limit. */
export function sizeProblems(offences: readonly SizeOffence[]): string[] {
  if (offences.length === 0) return [];
  return [
    `Files over ${MAX_FILE_LINES} lines, functions over ${MAX_FUNCTION_LINES} lines (split them):`,
    ...offences.map((offence) => `  ${offence.report}`),
  ];
}

import ts from 'typescript';

/**
 * The store's engines behind one door: each engine's code lives in a folder of its own under
 * src/store/ (a folder there with a driver.ts is an engine's), and the rest of src/ reaches it only
 * through the interface (src/store/engine.ts, engine-driver.ts) and the one file that picks the
 * engine (src/store/engines.ts). Elsewhere, code must not import a database driver, import a file
 * of an engine's folder, or ask which engine it runs on: compare with an engine's name, switch on
 * one, key a table by them, or compare engines themselves.
 */

/** The one file outside the engines' folders that may import them: it picks the settings' engine. */
export const ENGINE_DOOR = 'store/engines.ts';

/** The database drivers' packages, which only an engine's folder imports. */
const DRIVER_PACKAGE = /^(better-sqlite3|sqlite3|pg|pg-[a-z-]+|postgres|mysql2?)$/;

/** Names by which code could tell the engines apart. */
const ENGINE_NAME = /^(sqlite|sqlite3|postgres|postgresql|pg)$/i;

/** The engines' folders (relative to src/, ending with "/"): those under store/ that hold a driver.ts. */
export function engineFolders(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const match = /^store\/([^/]+)\/driver\.ts$/.exec(file);
    return match ? [`store/${match[1]}/`] : [];
  });
}

function importedModules(text: string): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  // A type written as import('pg').Pool is an import too, which preProcessFile leaves out.
  const typeImports = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]);
  return [...new Set([...importedFiles.map((imported) => imported.fileName), ...typeImports])];
}

/** Whether an expression names an engine: its name as a literal, or the engine itself (`x.engine`, `x.engine.name`). */
function namesEngine(node: ts.Expression): boolean {
  if (ts.isStringLiteralLike(node)) return ENGINE_NAME.test(node.text);
  const text = node.getText();
  return /(^|\.)engine(\.(name|title))?$/.test(text);
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

function propertyNamed(node: ts.ObjectLiteralElementLike): string | undefined {
  const name = node.name;
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return undefined;
}

/** "line: what" for every place the code asks which engine it runs on. */
function engineQuestions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      if (namesEngine(node.left) || namesEngine(node.right)) at(node, `compares engines (${node.getText()})`);
    } else if (ts.isCaseClause(node) && namesEngine(node.expression)) {
      at(node, `switches on an engine (case ${node.expression.getText()})`);
    } else if (ts.isObjectLiteralExpression(node)) {
      const keyed = node.properties.map(propertyNamed).filter((name) => name !== undefined && ENGINE_NAME.test(name));
      if (keyed.length > 0) at(node, `keys a table by engine (${keyed.join(', ')})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What a file of src/ (its path relative to src/, and its text) does against the rule: nothing
 * for a file in an engine's folder; for the door, only a driver's import or a question counts.
 */
export function engineDoorViolations(file: string, text: string, folders: readonly string[]): string[] {
  if (folders.some((folder) => file.startsWith(folder))) return [];
  const problems: string[] = [];
  for (const module of importedModules(text)) {
    if (DRIVER_PACKAGE.test(module)) {
      problems.push(`${file} imports ${module}, a database driver (only src/store/<engine>/ may)`);
    } else if (module.startsWith('.') && file !== ENGINE_DOOR) {
      const target = new URL(module, `file:///${file}`).pathname.slice(1);
      const folder = folders.find((candidate) => target.startsWith(candidate));
      if (folder) problems.push(`${file} imports ${module}, inside src/${folder} (go through src/${ENGINE_DOOR})`);
    }
  }
  for (const question of engineQuestions(file, text)) {
    problems.push(`${file}:${question}: only src/store/<engine>/ knows which engine it is`);
  }
  return problems;
}

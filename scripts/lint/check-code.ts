/**
 * The checks of the code that the formatter and linter (Biome) do not make, run by `npm run lint`:
 * lines at most 120 characters in every code file, the sizes of src/'s files and functions, the
 * layers (as docs/architecture.md lists them) and the file and folder cycles of src/'s imports, and
 * the store's engines behind one door.
 *
 *   npm run lint
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { sizeOffences, sizeProblems } from './code-size';
import { ENGINE_DOOR, engineDoorViolations, engineFolders } from './engine-door';
import { folderGraph, importCycles, layerViolations, readImportGraph } from './import-graph';
import { CODE_EXTENSIONS, longLines, MAX_LINE_LENGTH } from './line-length';

const ROOT = resolve(__dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const codeFiles = ['src', 'test', 'scripts']
  .flatMap((folder) => filesUnder(join(ROOT, folder)))
  .filter((file) => CODE_EXTENSIONS.includes(extname(file)));
const problems = codeFiles.flatMap((file) => longLines(file, relative(ROOT, file)));
if (problems.length > 0) problems.unshift(`Lines longer than ${MAX_LINE_LENGTH} characters:`);

const sourceRoot = join(ROOT, 'src');
const sourceFiles = filesUnder(sourceRoot).filter((file) => file.endsWith('.ts'));
problems.push(...sizeProblems(sourceFiles.flatMap((file) => sizeOffences(file, relative(sourceRoot, file)))));
const graph = readImportGraph(sourceRoot, sourceFiles);
problems.push(...layerViolations(graph).map((problem) => `src/${problem}`));
for (const cycle of importCycles(graph)) problems.push(`Import cycle among src/: ${cycle.join(', ')}`);
for (const cycle of importCycles(folderGraph(graph))) problems.push(`Folder cycle among src/: ${cycle.join(', ')}`);
const folders = engineFolders([...graph.keys()]);
if (folders.length === 0)
  problems.push(`No engine folder under src/store/ (one with a driver.ts) for ${ENGINE_DOOR} to pick`);
for (const file of graph.keys()) {
  problems.push(
    ...engineDoorViolations(file, readFileSync(join(sourceRoot, file), 'utf8'), folders).map((p) => `src/${p}`),
  );
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `check-code: ${codeFiles.length} files, ${graph.size} modules in src/: sizes within limits, layers kept, ` +
    `no file or folder cycles, the engines (${folders.join(', ')}) behind one door\n`,
);

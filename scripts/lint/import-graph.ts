import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The import graph of src/: every relative import of every file, type-only and dynamic ones
 * included, and the two rules it must keep: layers are imported downwards only, and there are
 * no cycles.
 */

/** A file, by its path relative to src/, and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The layers from the top down; a folder ends with "/", a single file does not. */
export const LAYERS: ReadonlyArray<{ readonly name: string; readonly members: readonly string[] }> = [
  { name: 'entry', members: ['main.ts', 'cli.ts', 'cli/', 'service.ts', 'workers.ts', 'server/'] },
  { name: 'bindings', members: ['soap/', 'http/', 'pages/'] },
  { name: 'pipeline', members: ['pipeline/'] },
  { name: 'operations', members: ['operations/'] },
  { name: 'domain', members: ['access/', 'audit/', 'notifications/', 'delivery/', 'documents/', 'roster/', 'sis/'] },
  { name: 'store', members: ['store/'] },
  { name: 'foundation', members: ['contract/', 'config/', 'wire/', 'lib/', 'telemetry/'] },
];

function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The graph of the given files (absolute paths), keyed relative to `root`. */
export function readImportGraph(root: string, files: readonly string[]): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveImport(file, specifier) ?? `${relative(root, resolve(dirname(file), specifier))}?`)
      .map((target) => (target.endsWith('?') ? target : relative(root, target)));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** The index of a file's layer in LAYERS, or undefined when it belongs to none. */
export function layerOf(file: string): number | undefined {
  const index = LAYERS.findIndex((layer) =>
    layer.members.some((member) => (member.endsWith('/') ? file.startsWith(member) : file === member)),
  );
  return index === -1 ? undefined : index;
}

/** Every import that points up the layers, every file in no layer, and every import that resolves to nothing. */
export function layerViolations(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (from === undefined) {
      problems.push(`${file} belongs to no layer (see LAYERS in scripts/lint/import-graph.ts)`);
      continue;
    }
    for (const target of targets) {
      if (target.endsWith('?')) {
        problems.push(`${file} imports ${target.slice(0, -1)}, which does not resolve to a file`);
        continue;
      }
      const to = layerOf(target);
      if (to !== undefined && to < from) {
        problems.push(`${file} (${LAYERS[from].name}) imports ${target} (${LAYERS[to].name}), a layer above it`);
      }
    }
  }
  return problems;
}

/** The import cycles: each strongly connected set of two or more files, or a file importing itself (Tarjan). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) as number, lowLink.get(target) as number));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) as number, index.get(target) as number));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

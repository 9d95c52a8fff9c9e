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

/** A layer, from the top down; a folder member ends with "/", a single file does not. */
export interface Layer {
  readonly name: string;
  readonly members: readonly string[];
}

/** Where the layers are written down for people; the check reads them from there, so the two cannot differ. */
export const LAYERS_DOCUMENT = resolve(__dirname, '..', '..', 'docs', 'architecture.md');

/**
 * The layers of the table under "## Layers" in docs/architecture.md: a row per layer, top down,
 * its name in the first column and its folders and files, each in backticks, in the second.
 */
export function readLayers(markdown: string): Layer[] {
  const section = markdown.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .slice(2);
  const layers = rows.map((cells) => ({
    name: cells[1],
    members: [...cells[2].matchAll(/`([^`]+)`/g)].map((match) => match[1]),
  }));
  if (layers.length === 0) throw new Error(`no layer table under "## Layers" in ${LAYERS_DOCUMENT}`);
  return layers;
}

export const LAYERS: readonly Layer[] = readLayers(readFileSync(LAYERS_DOCUMENT, 'utf8'));

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
      problems.push(`${file} belongs to no layer (see the table of layers in docs/architecture.md)`);
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

/**
 * The graph of src/'s top-level folders (a file at the top stands for itself): a folder imports
 * another when any of its files imports one of the other's. Files can be free of cycles while their
 * folders are not (a.ts -> b/x.ts -> a/y.ts), and a folder cycle means neither folder can be
 * understood, tested or moved without the other.
 */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const unitOf = (file: string) => file.split('/')[0];
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = unitOf(file);
    const imported = folders.get(from) ?? new Set<string>();
    folders.set(from, imported);
    for (const target of targets) if (!target.endsWith('?') && unitOf(target) !== from) imported.add(unitOf(target));
  }
  return new Map([...folders].map(([folder, imported]) => [folder, [...imported].sort()]));
}

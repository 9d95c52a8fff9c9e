import { existsSync, lstatSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type PruneRule, ruleRemoving } from './prune-rules';

/** What pruning removed, by rule, in files and bytes. */
export type PruneReport = Map<PruneRule, { files: number; bytes: number }>;

/** Files and bytes of a tree, links counted as files of no size. */
export function treeSize(path: string): { files: number; bytes: number } {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return { files: 1, bytes: stat.isFile() ? stat.size : 0 };
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(path)) {
    const inner = treeSize(join(path, name));
    files += inner.files;
    bytes += inner.bytes;
  }
  return { files, bytes };
}

/**
 * Removes from a node_modules folder what the rules of prune-rules.ts name, package by package
 * (nested node_modules and @scope folders included), and says what each rule removed.
 */
export function pruneDependencies(nodeModules: string, report: PruneReport = new Map()): PruneReport {
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    const path = join(nodeModules, entry.name);
    // Here every folder is a package (or a scope of packages), whatever its name: only npm's own
    // dot entries (.bin, .package-lock.json) are removed at this level.
    if (entry.name.startsWith('.')) removeIfRuled(path, entry.name, entry.name, false, report, entry.isDirectory());
    else if (entry.name.startsWith('@') && entry.isDirectory()) pruneDependencies(path, report);
    else if (entry.isDirectory()) prunePackage(path, '', existsSync(join(path, 'binding.gyp')), report);
  }
  return report;
}

function prunePackage(root: string, within: string, native: boolean, report: PruneReport): void {
  const folder = within === '' ? root : join(root, within);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const pathInPackage = within === '' ? entry.name : `${within}/${entry.name}`;
    const path = join(folder, entry.name);
    const isDirectory = entry.isDirectory();
    if (removeIfRuled(path, entry.name, pathInPackage, native, report, isDirectory)) continue;
    // A package's own dependencies are packages of their own, judged by their own build.
    if (isDirectory && entry.name === 'node_modules') pruneDependencies(path, report);
    else if (isDirectory) prunePackage(root, pathInPackage, native, report);
  }
}

function removeIfRuled(
  path: string,
  name: string,
  pathInPackage: string,
  inNativePackage: boolean,
  report: PruneReport,
  isDirectory = false,
): boolean {
  const rule = ruleRemoving({ name, pathInPackage, isDirectory, inNativePackage });
  if (rule === undefined) return false;
  const size = treeSize(path);
  const sum = report.get(rule) ?? { files: 0, bytes: 0 };
  report.set(rule, { files: sum.files + size.files, bytes: sum.bytes + size.bytes });
  rmSync(path, { recursive: true, force: true });
  return true;
}

/** Removes the folders that pruning left empty (npm's prune leaves empty scope folders too). */
export function removeEmptyFolders(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyFolders(join(folder, entry.name));
  }
  if (readdirSync(folder).length === 0) rmdirSync(folder);
}

import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { treeSize } from './prune';

/**
 * Tools a native module runs only while npm installs it: prebuild-install fetches a prebuilt
 * module, node-gyp compiles one. The release carries the module they made, and a server never
 * installs, so neither they nor the packages that only they need ever run there.
 */
export const INSTALL_TIME_TOOLS: readonly string[] = ['prebuild-install', 'node-gyp'];

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function dependencyNames(packageFolder: string): string[] {
  const manifest = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8')) as Manifest;
  return [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ];
}

/** The folder `require(name)` finds from a package's folder, as Node.js looks: up through node_modules. */
function resolvePackage(from: string, name: string, top: string): string | undefined {
  for (let folder = from; folder.startsWith(top); folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (folder === top) break;
  }
  return undefined;
}

/** Every package folder under a node_modules folder, nested and scoped ones included. */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith('.')) return [];
    const folder = join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) return installedPackages(folder);
    return [folder, ...installedPackages(join(folder, 'node_modules'))];
  });
}

/**
 * Removes the packages of a release that its own dependencies do not reach without passing through
 * an install-time tool, and says how many files and bytes went.
 */
export function pruneInstallTimeTools(release: string): { files: number; bytes: number } {
  const reached = new Set<string>();
  const pending = [release];
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    for (const name of dependencyNames(folder)) {
      if (INSTALL_TIME_TOOLS.includes(name)) continue;
      const found = resolvePackage(folder, name, release);
      if (found !== undefined && !reached.has(found)) {
        reached.add(found);
        pending.push(found);
      }
    }
  }
  const removed = { files: 0, bytes: 0 };
  for (const folder of installedPackages(join(release, 'node_modules'))) {
    if (reached.has(folder) || !existsSync(folder)) continue;
    const size = treeSize(folder);
    removed.files += size.files;
    removed.bytes += size.bytes;
    rmSync(folder, { recursive: true, force: true });
  }
  return removed;
}

import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SERVICE_ENTRY } from './build';

/** A build of the service a benchmark measures: the work tree's, or a git ref's. */
export interface ServiceBuild {
  readonly label: string;
  readonly entry: string;
  readonly cwd: string;
}

export const WORK_TREE_BUILD: ServiceBuild = { label: 'work tree', entry: SERVICE_ENTRY, cwd: ROOT };

function git(args: readonly string[], cwd = ROOT): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/**
 * Checks REF out into a temporary git worktree in `directory`, with the work tree's node_modules,
 * and compiles its service there the way that ref's own benchmark does (its
 * scripts/benchmark/tsconfig.service.json, or tsconfig.build.json in refs from before it). The
 * worktree is removed by `remove`, which the benchmark calls on every way out.
 */
export function checkOutRef(ref: string, directory: string): { build: ServiceBuild; remove(): void } {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const folder = join(directory, 'ref');
  console.log(`Checking out ${ref} (${commit.slice(0, 10)}) into a temporary worktree and building it ...`);
  git(['worktree', 'add', '--detach', '--quiet', folder, commit]);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', folder], { cwd: ROOT });
    spawnSync('git', ['worktree', 'prune'], { cwd: ROOT });
  };
  try {
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(folder, 'node_modules'));
    const project = existsSync(join(folder, 'scripts', 'benchmark', 'tsconfig.service.json'))
      ? 'scripts/benchmark/tsconfig.service.json'
      : 'tsconfig.build.json';
    const built = spawnSync('npx', ['tsc', '-p', project], { cwd: folder, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`${ref} does not build`);
  } catch (error) {
    remove();
    throw error;
  }
  return { build: { label: ref, entry: join(folder, 'dist', 'src', 'main.js'), cwd: folder }, remove };
}

import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli';

/**
 * The release as `npm run package` builds it and a server installs it: built into a folder of the
 * test's own, unpacked with tar, and run with a PATH that holds node and nothing else.
 */

export interface BuiltRelease {
  readonly tarball: string;
  /** What the package script said on standard error: the sizes and what each prune rule removed. */
  readonly report: string;
}

/** Builds the release tarball into `out`; throws (so the suite fails, under CI too) when it cannot. */
export function buildRelease(out: string): BuiltRelease {
  const built = spawnSync('npm', ['run', '--silent', 'package', '--', '--out', out], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run package failed:\n${built.stdout}${built.stderr}`);
  const tarballs = readdirSync(out);
  if (tarballs.length !== 1 || !/^school-service-\d+\.\d+\.\d+-linux-x64\.tar\.gz$/.test(tarballs[0] as string)) {
    throw new Error(`npm run package made ${tarballs.join(', ') || 'nothing'} in ${out}`);
  }
  return { tarball: join(out, tarballs[0] as string), report: built.stderr };
}

/** Unpacks the tarball into an empty folder and gives the release's own folder in it. */
export function unpackRelease(tarball: string, into: string): string {
  mkdirSync(into);
  execFileSync('tar', ['-xzf', tarball, '-C', into]);
  const [folder] = readdirSync(into);
  return join(into, folder as string);
}

const BUILD_TOOLS = ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python', 'python3', 'node-gyp', 'npm'];

/**
 * A PATH of one folder holding a link to this node alone: node's own folder may be /usr/bin, which
 * holds the machine's compilers too.
 */
export function nodeOnlyPath(work: string): string {
  const bin = join(work, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

/** The build tools a PATH would let a process find (none, on a server that never builds). */
export function buildToolsOn(path: string): string[] {
  return BUILD_TOOLS.filter((tool) =>
    path.split(':').some((folder) => {
      try {
        accessSync(join(folder, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    }),
  );
}

/** The installed service, started from its own folder with its settings file, resolved once it listens. */
export function startRelease(
  release: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, [join(release, 'dist', 'src', 'main.js')], {
    cwd: release,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  return new Promise((resolveListening, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString('utf8');
      const listening = /"message":"listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(log);
      if (listening) resolveListening({ child, url: listening[1] as string, log: () => log });
    });
    child.once('exit', (code) => reject(new Error(`the release's service exited with ${code}:\n${log}`)));
  });
}

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { INSTALL_TIME_TOOLS, pruneInstallTimeTools } from './package/install-time';
import { requireCompiledModules } from './package/native-modules';
import { type PruneReport, pruneDependencies, removeEmptyFolders, treeSize } from './package/prune';

/**
 * npm run package [-- --out FOLDER]: builds school-service-VERSION-PLATFORM-ARCH.tar.gz, a release
 * a server installs with tar and Node.js alone: the built code, the WSDL, the deploy files and
 * docs, and the production dependencies with their native modules (better-sqlite3) compiled for
 * this platform. Nothing is downloaded: the dependencies are this checkout's, copied (hard links
 * where the file system allows) and pruned of the development ones by npm, offline; then of what
 * does not run (package/prune-rules.ts: build leftovers, tests, source maps, docs but licences;
 * package/install-time.ts: the tools npm ran to get the native module, and what only they need).
 * Prints the tarball's path on standard output, and its sizes and what each rule removed on
 * standard error.
 */

const ROOT = resolve(__dirname, '..');
const SHIPPED = ['package.json', 'package-lock.json', 'README.md', 'wsdl', 'deploy', 'docs'];

function outFolder(): string {
  const index = process.argv.indexOf('--out');
  return resolve(index >= 0 && process.argv[index + 1] ? (process.argv[index + 1] as string) : ROOT);
}

function copyDependencies(into: string): void {
  const installed = realpathSync(join(ROOT, 'node_modules'));
  try {
    execFileSync('cp', ['-al', installed, into], { stdio: 'pipe' });
  } catch {
    // Another file system than the checkout's: hard links cannot cross it, so copy.
    rmSync(into, { recursive: true, force: true });
    execFileSync('cp', ['-a', installed, into], { stdio: 'pipe' });
  }
  // npm rewrites its own record of the tree when it prunes: a file of the copy's own, not a link.
  const record = join(into, '.package-lock.json');
  if (existsSync(record)) {
    rmSync(record);
    cpSync(join(installed, '.package-lock.json'), record);
  }
}

function sizesLine(
  tarball: string,
  release: string,
  pruned: PruneReport,
  installTools: { files: number; bytes: number },
): string {
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const kept = treeSize(release);
  const removed = [...pruned.values()].reduce(
    (sum, rule) => ({ files: sum.files + rule.files, bytes: sum.bytes + rule.bytes }),
    installTools,
  );
  const lines = [...pruned].map(([rule, sum]) => `  ${megabytes(sum.bytes)} in ${sum.files} files: ${rule.removes}`);
  return [
    `package: ${megabytes(statSync(tarball).size)} packed, ${megabytes(kept.bytes)} unpacked in ${kept.files} files`,
    `pruned from the dependencies: ${megabytes(removed.bytes)} in ${removed.files} files`,
    ...lines,
    `  ${megabytes(installTools.bytes)} in ${installTools.files} files: install-time tools ` +
      `(${INSTALL_TIME_TOOLS.join(', ')}) and the packages only they need`,
    '',
  ].join('\n');
}

function main(): void {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const name = `school-service-${version}-${platform()}-${arch()}`;
  const out = outFolder();
  mkdirSync(out, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'school-service-package-'));
  try {
    const release = join(staging, `school-service-${version}`);
    mkdirSync(release);
    execFileSync(
      process.execPath,
      // No source maps: they would point at sources the release does not hold.
      [
        require.resolve('typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--sourceMap',
        'false',
        '--outDir',
        join(release, 'dist'),
      ],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    for (const file of SHIPPED) cpSync(join(ROOT, file), join(release, file), { recursive: true });
    copyDependencies(join(release, 'node_modules'));
    execFileSync('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--offline'], {
      cwd: release,
      stdio: 'pipe',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    requireCompiledModules(join(release, 'node_modules'));
    const pruned = pruneDependencies(join(release, 'node_modules'));
    const installTools = pruneInstallTimeTools(release);
    removeEmptyFolders(join(release, 'node_modules'));
    const tarball = join(out, `${name}.tar.gz`);
    // Owned by root, writable by its owner alone, no set-id bit, whatever the build machine's umask.
    const owner = ['--owner=0', '--group=0', '--numeric-owner', '--mode=go-w,a-st', '--sort=name'];
    execFileSync('tar', ['-czf', tarball, ...owner, '-C', staging, `school-service-${version}`]);
    process.stderr.write(sizesLine(tarball, release, pruned, installTools));
    process.stdout.write(`${tarball}\n`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

main();

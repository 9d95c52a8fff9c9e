import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * npm run package [-- --out FOLDER]: builds school-service-VERSION-PLATFORM-ARCH.tar.gz, a release
 * a server installs with tar and Node.js alone: the built code, the WSDL, the deploy files and
 * docs, and the production dependencies with their native modules (better-sqlite3) compiled for
 * this platform. Nothing is downloaded: the dependencies are this checkout's, copied (hard links
 * where the file system allows) and pruned of the development ones by npm, offline.
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
      [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(release, 'dist')],
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
    const tarball = join(out, `${name}.tar.gz`);
    execFileSync('tar', ['-czf', tarball, '--owner=0', '--group=0', '-C', staging, `school-service-${version}`]);
    process.stdout.write(`${tarball}\n`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

main();

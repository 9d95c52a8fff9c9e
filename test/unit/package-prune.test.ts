import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pruneInstallTimeTools } from '../../scripts/package/install-time';
import { requireCompiledModules } from '../../scripts/package/native-modules';
import { pruneDependencies, removeEmptyFolders, treeSize } from '../../scripts/package/prune';

/**
 * The release's pruning on a node_modules folder made for the test: what each rule removes, what
 * it must spare (licences, a package's runtime code whatever its folder's name, a package named
 * like a test folder), and what it reports.
 */

let root: string;

function files(...paths: string[]): void {
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${path}\n`);
  }
}

/** A package.json with these dependencies. */
function manifest(path: string, dependencies: string[], field = 'dependencies'): void {
  mkdirSync(join(root, path), { recursive: true });
  const named = Object.fromEntries(dependencies.map((name) => [name, '*']));
  writeFileSync(join(root, path, 'package.json'), JSON.stringify({ name: path, [field]: named }));
}

function remaining(folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? remaining(join(folder, entry.name)) : [relative(root, join(folder, entry.name))],
    )
    .sort();
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'school-prune-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

test('a native module keeps its compiled module, its JavaScript and licence, and loses how it was built', () => {
  files(
    'native/package.json',
    'native/LICENSE',
    'native/binding.gyp',
    'native/lib/index.js',
    'native/deps/sqlite3/sqlite3.c',
    'native/deps/download.sh',
    'native/src/addon.cpp',
    'native/build/Makefile',
    'native/build/config.gypi',
    'native/build/Release/addon.node',
    'native/build/Release/obj.target/addon.o',
    'native/build/Release/.deps/Release/addon.o.d',
    'native/build/Release/libsqlite.a',
  );
  pruneDependencies(root);
  expect(remaining()).toEqual([
    'native/LICENSE',
    'native/build/Release/addon.node',
    'native/lib/index.js',
    'native/package.json',
  ]);
});

test('a package loses its tests, maps, declarations, readers’ files and build settings, and keeps licences', () => {
  files(
    'plain/package.json',
    'plain/LICENSE.md',
    'plain/COPYING.txt',
    'plain/NOTICE',
    'plain/README.md',
    'plain/CHANGELOG',
    'plain/tsconfig.json',
    'plain/rollup.config.mjs',
    'plain/Makefile',
    'plain/.eslintrc',
    'plain/.github/workflows/ci.yml',
    'plain/.yarn/releases/yarn.cjs',
    'plain/index.js',
    'plain/index.d.ts',
    'plain/src/index.ts',
    'plain/dist/index.js',
    'plain/dist/index.js.map',
    'plain/dist/config.js',
    'plain/build/encode.js',
    'plain/test/fixtures/people.csv',
    'plain/docs/guide.md',
    'plain/examples/demo.js',
  );
  pruneDependencies(root);
  expect(remaining()).toEqual([
    'plain/COPYING.txt',
    'plain/LICENSE.md',
    'plain/NOTICE',
    'plain/build/encode.js',
    'plain/dist/config.js',
    'plain/dist/index.js',
    'plain/index.js',
    'plain/package.json',
  ]);
});

test('packages are judged as packages whatever their names, scoped and nested ones too; npm’s dot entries go', () => {
  files(
    'test/package.json',
    'test/index.js',
    'docs/package.json',
    '@scope/tool/package.json',
    '@scope/tool/index.js',
    '@scope/tool/index.js.map',
    'outer/package.json',
    'outer/node_modules/inner/package.json',
    'outer/node_modules/inner/test/inner.test.js',
    'outer/node_modules/inner/README.md',
    '.package-lock.json',
    '.bin/tool',
  );
  const report = pruneDependencies(root);
  expect(remaining()).toEqual([
    '@scope/tool/index.js',
    '@scope/tool/package.json',
    'docs/package.json',
    'outer/node_modules/inner/package.json',
    'outer/package.json',
    'test/index.js',
    'test/package.json',
  ]);
  const removed = [...report].map(([rule, sum]) => [rule.removes, sum.files]);
  expect(removed).toEqual(
    expect.arrayContaining([
      ['dot files and folders (.github, .yarn, .eslintrc, .bin, .package-lock.json)', 2],
      ['source maps (*.map)', 1],
      ['test, example, benchmark and documentation folders', 1],
      ['READMEs, change logs and other Markdown', 1],
    ]),
  );
  expect(removed).toHaveLength(4);
});

test('treeSize counts the files and bytes left', () => {
  files('a/package.json', 'a/index.js');
  const expected = ['a/package.json', 'a/index.js'].reduce((sum, path) => sum + statSync(join(root, path)).size, 0);
  expect(treeSize(root)).toEqual({ files: 2, bytes: expected });
});

test('install-time tools go with the packages only they need; what the release reaches stays, nested or not', () => {
  manifest('.', ['native', 'plain']);
  manifest('node_modules/native', ['prebuild-install', 'bindings']);
  manifest('node_modules/bindings', []);
  manifest('node_modules/plain', ['shared', 'inner']);
  manifest('node_modules/plain/node_modules/inner', ['optional'], 'optionalDependencies');
  manifest('node_modules/optional', []);
  manifest('node_modules/prebuild-install', ['shared', 'only-for-install', 'tar-fs']);
  manifest('node_modules/shared', []);
  manifest('node_modules/only-for-install', []);
  manifest('node_modules/tar-fs', []);
  manifest('node_modules/tar-fs/node_modules/nested-for-install', []);
  manifest('node_modules/@scope/unused', []);
  const removed = pruneInstallTimeTools(root);
  removeEmptyFolders(join(root, 'node_modules'));
  expect(remaining()).toEqual([
    'node_modules/bindings/package.json',
    'node_modules/native/package.json',
    'node_modules/optional/package.json',
    'node_modules/plain/node_modules/inner/package.json',
    'node_modules/plain/package.json',
    'node_modules/shared/package.json',
    'package.json',
  ]);
  expect(removed.files).toBe(5);
  expect(readdirSync(join(root, 'node_modules')).includes('@scope')).toBe(false);
});

test('a native module without its compiled module is refused before anything is packed', () => {
  files('native/package.json', 'native/binding.gyp', 'native/build/Release/obj.target/addon.o', 'plain/package.json');
  expect(() => requireCompiledModules(root)).toThrow(
    'native has no compiled module in build/Release: run npm rebuild native',
  );
  files('native/build/Release/addon.node');
  expect(() => requireCompiledModules(root)).not.toThrow();
});

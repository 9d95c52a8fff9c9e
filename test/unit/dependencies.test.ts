import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../support/cli';

/**
 * The dependencies say what the code does: every runtime dependency is imported by src/, and
 * every development dependency is imported by the tests or scripts, or run by an npm script or
 * the test runner. A package that nothing uses is not kept.
 */
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The packages the files use: those they import (`x` of 'x' and 'x/sub', `@scope/x` of
 * '@scope/x/sub'), and those whose files they name to read with require.resolve, as the report
 * cards' font is read.
 */
function importedPackages(folders: readonly string[]): Set<string> {
  const packages = new Set<string>();
  for (const file of folders.flatMap((folder) => typeScriptFiles(join(ROOT, folder)))) {
    const text = readFileSync(file, 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.') && !fileName.startsWith('node:')) packages.add(packageOf(fileName));
    }
    if (text.includes('require.resolve(')) {
      for (const [, path] of text.matchAll(/'((?:@[\w.-]+\/)?[\w.-]+\/[^']+\.\w+)'/g)) packages.add(packageOf(path));
    }
  }
  return packages;
}

/** The package a type package types: x of @types/x, @scope/x of @types/scope__x. */
function typedPackage(name: string): string {
  const typed = name.slice('@types/'.length);
  return typed.includes('__') ? `@${typed.replace('__', '/')}` : typed;
}

describe('the dependencies', () => {
  test('every runtime dependency is imported by src/', () => {
    const used = importedPackages(['src']);
    expect(Object.keys(manifest.dependencies).filter((name) => !used.has(name))).toEqual([]);
  });

  test('every development dependency is used by the tests, the scripts or an npm script', () => {
    const imported = importedPackages(['test', 'scripts']);
    const runtime = importedPackages(['src']);
    const scripts = Object.values(manifest.scripts).join('\n');
    const jestConfig = readFileSync(join(ROOT, 'jest.config.js'), 'utf8');
    const commands: Record<string, string> = { '@biomejs/biome': 'biome', typescript: 'tsc', jest: 'jest', tsx: 'tsx' };
    const isUsed = (name: string) =>
      runtime.has(name) ||
      imported.has(name) ||
      jestConfig.includes(`'${name}'`) ||
      (commands[name] !== undefined && new RegExp(`\\b${commands[name]}\\b`).test(scripts));
    // A type package is used when what it types is (Node's own, always).
    const unused = Object.keys(manifest.devDependencies).filter((name) =>
      name.startsWith('@types/') ? typedPackage(name) !== 'node' && !isUsed(typedPackage(name)) : !isUsed(name),
    );
    expect(unused).toEqual([]);
  });

  test('no package is imported that the manifest does not declare', () => {
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);
    const runtime = [...importedPackages(['src'])].filter((name) => !manifest.dependencies[name]);
    const development = [...importedPackages(['test', 'scripts'])].filter((name) => !declared.has(name));
    expect({ runtime, development }).toEqual({ runtime: [], development: [] });
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The service's own package.json: found by walking up from here, the same from src/ and from dist/src/. */
function findPackageJson(start: string): string {
  let directory = start;
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${start}`);
    directory = parent;
  }
  return join(directory, 'package.json');
}

let installedVersion: string | undefined;

/**
 * The version of the installed service, read once: each school a district opens names it in its
 * row among the processes serving, and a file read on each opening was a cost of its first call.
 */
export function serviceVersion(): string {
  installedVersion ??= (JSON.parse(readFileSync(findPackageJson(__dirname), 'utf8')) as { version: string }).version;
  return installedVersion;
}

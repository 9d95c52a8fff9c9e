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

/** The version of the installed service. */
export function serviceVersion(): string {
  const { version } = JSON.parse(readFileSync(findPackageJson(__dirname), 'utf8')) as { version: string };
  return version;
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Refuses a release whose native module npm has not compiled (yet: `npm ci` still building it, or
 * a build that failed): its store could not open on the server, which has no compiler to mend it.
 * A package that builds one has a `binding.gyp`; what it loads is a `.node` file in build/Release.
 */
export function requireCompiledModules(nodeModules: string): void {
  for (const name of readdirSync(nodeModules)) {
    const folder = join(nodeModules, name);
    if (!existsSync(join(folder, 'binding.gyp'))) continue;
    const release = join(folder, 'build', 'Release');
    const compiled = existsSync(release) && readdirSync(release).some((file) => file.endsWith('.node'));
    if (!compiled) throw new Error(`${name} has no compiled module in build/Release: run npm rebuild ${name}`);
  }
}

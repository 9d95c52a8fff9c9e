import { join, resolve } from 'node:path';

/** The project's top folder, where the command runs from. */
export const ROOT = resolve(__dirname, '..', '..');

/** node's arguments to run `school-service ARGS...` from the source, as the built bin runs it from dist/. */
export function cliArguments(...args: string[]): string[] {
  return ['--import', 'tsx', join('src', 'cli.ts'), ...args];
}

/**
 * node's arguments and environment to run `school-service ARGS...` from the source with any folder
 * as the working folder, as an operator runs the installed command from wherever they are.
 */
export function cliFromAnywhere(...args: string[]): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--import', require.resolve('tsx', { paths: [ROOT] }), resolve(ROOT, 'src', 'cli.ts'), ...args],
    env: { TSX_TSCONFIG_PATH: resolve(ROOT, 'tsconfig.json') },
  };
}

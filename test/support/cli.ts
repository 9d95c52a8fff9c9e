import { resolve } from 'node:path';

/** The project's top folder, where the command runs from. */
export const ROOT = resolve(__dirname, '..', '..');

/** node's arguments to run `school-service ARGS...` from the source, as the built bin runs it from dist/. */
export function cliArguments(...args: string[]): string[] {
  return ['--import', 'tsx', 'src/cli.ts', ...args];
}

import { execFileSync } from 'node:child_process';
import { postgresBinDirectory } from './postgres';

/**
 * Whether an external program (a SOAP client stack, a browser) is installed. Under CI=true a
 * missing tool is a failure, never a quiet skip: .ci/run installs every one of them.
 */
export function hasTool(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * `describe` when the tools are present (or under CI, where their absence must fail); else skip.
 * PostgreSQL's server is not a command on the PATH, so it is asked for by `postgres`.
 */
export function describeWithTools(commands: string[], { postgres = false } = {}): jest.Describe {
  const missing = commands.filter((command) => !hasTool(command));
  if (postgres && postgresBinDirectory() === undefined) missing.push('the PostgreSQL server (postgresql)');
  if (missing.length === 0) return describe;
  if (process.env.CI === 'true') {
    return ((name: string, body: () => void) =>
      describe(name, () => {
        test('has its tools installed', () => {
          throw new Error(`missing under CI: ${missing.join(', ')} (.ci/run must install them)`);
        });
        body();
      })) as unknown as jest.Describe;
  }
  return describe.skip;
}

/** `describe` for a suite that starts its own PostgreSQL cluster. */
export const describeOnPostgres = (): jest.Describe => describeWithTools([], { postgres: true });

import { execFile } from 'node:child_process';
import { SAMPLE_ENVIRONMENT } from './sample-arguments';

export type SoapVersion = '1.1' | '1.2';

/** One line a client program prints per operation it called. */
export interface ClientCall {
  endpoint: string;
  operation: string;
  version: SoapVersion;
  ok: boolean;
  result?: string | null;
  error?: string;
}

/** Where a program runs: its working directory, and its environment when not the test's own. */
export interface ProgramOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs a program to completion and returns its standard output. A non-zero exit fails with the
 * command, exit status and both outputs, since a generator's or compiler's complaint is the clue.
 */
export function runCommand(command: string, args: readonly string[], options: ProgramOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...options, timeout: 100_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const status = error.killed ? `killed by ${error.signal}` : `exit ${error.code}`;
        reject(
          new Error(`${command} ${args.join(' ')} failed (${status})\n--- stdout\n${stdout}\n--- stderr\n${stderr}`),
        );
      } else {
        resolve(stdout);
      }
    });
  });
}

/** Runs a client program and parses the JSON line it printed for each call. */
export async function runClient<Call = ClientCall>(
  command: string,
  args: readonly string[],
  options: ProgramOptions = {},
): Promise<Call[]> {
  const output = await runCommand(command, args, {
    ...options,
    env: { ...(options.env ?? process.env), ...SAMPLE_ENVIRONMENT },
  });
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Call;
      } catch {
        // A warning printed among the results (PHP prints them to standard output) lands here.
        throw new Error(`${command} printed a line that is not JSON: ${line}\n--- whole output\n${output}`);
      }
    });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** A log line of the service: one JSON object. */
export type LogLine = Record<string, unknown> & { message: string };

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The address of the first server that listened ('' when none did by the time `ready` was logged). */
  readonly url: string;
  /** The log lines so far, in order. */
  readonly lines: readonly LogLine[];
  /** Resolves with the first log line (already written or still to come) the predicate accepts. */
  waitForLine(accept: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code once the process has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts src/main.ts (or `command`) as a process of its own, as an operator would, and resolves once the line
 * `ready` names has been logged ("listening" for one process, "workers listening" for WORKERS>1).
 */
export function startServiceProcess(
  settings: Record<string, string>,
  ready = 'listening',
  /** What to run instead of src/main.ts: the command with its arguments (`src/cli.ts serve --record …`). */
  command: readonly string[] = ['src/main.ts'],
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...command], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...settings },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let output = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    output += chunk;
    const complete = output.split('\n');
    output = complete.pop() ?? '';
    for (const text of complete) if (text.startsWith('{')) lines.push(JSON.parse(text) as LogLine);
    for (const wake of [...waiters]) wake();
  });
  // 'close' rather than 'exit': it comes after the last of the log has been read.
  const exited = new Promise<number | null>((resolveExit) => child.once('close', (code) => resolveExit(code)));

  const waitForLine = (accept: (line: LogLine) => boolean, timeoutMs = 60_000) =>
    new Promise<LogLine>((resolveLine, reject) => {
      const check = () => {
        const found = lines.find(accept);
        if (!found) return;
        finish();
        resolveLine(found);
      };
      const timer = setTimeout(() => {
        finish();
        reject(
          new Error(
            `no such log line within ${timeoutMs / 1000} s; the log:\n` +
              `${lines.map((line) => JSON.stringify(line)).join('\n')}`,
          ),
        );
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const started = Promise.race([
    waitForLine((line) => line.message === ready),
    exited.then((code) => {
      throw new Error(
        `the service exited with ${code} before "${ready}":\n${lines.map((line) => JSON.stringify(line)).join('\n')}`,
      );
    }),
  ]);
  return started.then(
    () => ({
      child,
      url: String(lines.find((line) => line.message === 'listening')?.url ?? ''),
      lines,
      waitForLine,
      exited,
    }),
    (error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    },
  );
}

/** Kills the process outright, as a crash would, and resolves once it is gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolveKilled) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolveKilled();
      return;
    }
    child.once('exit', () => resolveKilled());
    child.kill('SIGKILL');
  });
}

/** Whether a process of that id is still alive. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The worker processes a service has reported listening, in the order they did. */
export function listeningPids(service: ServiceProcess): number[] {
  return service.lines.filter((line) => line.message === 'listening').map((line) => Number(line.pid));
}

import { fork } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { readInteger } from '../config/readers';
import { log } from '../lib/log';

/** Set in the child that runs the command within the bound, so that it does not start another. */
const CHILD_MARK = 'SCHOOL_SERVICE_BOUNDED_HEAP';
export const DEFAULT_HEAP_MB = 384;

/**
 * Commands that stream a whole school (import, export) keep little alive at a time, but V8 lets
 * its old generation grow towards its default limit (a quarter of the machine's memory, up to
 * 4 GB) before it collects it: importing 5,000,000 results reached 760 MB with a live set under
 * 300 MB. The limit can only be set when a process starts, so such a command runs again as a child
 * of itself with the old generation bounded to IMPORT_HEAP_MB, and exits as the child does.
 *
 * Resolves to true when the command ran in the child (the caller has nothing left to do), false
 * when this process is that child.
 */
export async function ranWithBoundedHeap(): Promise<boolean> {
  if (process.env[CHILD_MARK] === '1') return false;
  process.exitCode = await runWithBoundedHeap(process.argv.slice(2));
  return true;
}

/** Runs `school-service ARGS...` as a child with the old generation bounded; resolves to its exit code. */
export async function runWithBoundedHeap(args: readonly string[]): Promise<number> {
  const megabytes = readInteger(process.env, 'IMPORT_HEAP_MB', DEFAULT_HEAP_MB, 64, 65_536);
  const child = fork(process.argv[1] as string, args, {
    execArgv: [...process.execArgv, `--max-old-space-size=${megabytes}`],
    // glibc gives threads malloc arenas of their own and keeps what a thread freed in its arena: a
    // sync's reading thread left 40 MB resident through the import's write, where its memory
    // peaks. With one arena the import reuses it (an operator's own setting is kept).
    env: { MALLOC_ARENA_MAX: '1', ...process.env, [CHILD_MARK]: '1' },
    stdio: 'inherit',
  });
  // The child shares the terminal, so Ctrl-C reaches it too; a signal sent to this process alone is passed on.
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGINT', forward);
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  process.off('SIGTERM', forward);
  process.off('SIGINT', forward);
  return code;
}

/** Logged (at debug) by the commands that run within the bound, so that an operator can see it hold. */
export function logHeapLimit(command: string): void {
  log.debug(`${command} runs with a bounded heap`, {
    heapLimitMegabytes: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20),
    mallocArenaMax: process.env.MALLOC_ARENA_MAX,
  });
}

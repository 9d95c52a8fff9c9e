import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

/**
 * The child processes the benchmark starts (the service, the bare server, wrk). Every one is
 * tracked and runs in a process group of its own, so that it is stopped with anything it started
 * whatever way the benchmark ends.
 */
export class ProcessGroup {
  private readonly children = new Set<ChildProcess>();

  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
    const child = spawn(command, args, { ...options, detached: true });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    child.once('error', () => this.children.delete(child));
    return child;
  }

  /** SIGTERM, then SIGKILL for any child still running after the grace period. */
  async stopAll(graceMs = 3_000): Promise<void> {
    await Promise.all([...this.children].map((child) => stop(child, graceMs)));
  }

  /** For process 'exit', where nothing asynchronous runs any more. */
  killAllNow(): void {
    for (const child of this.children) signalGroup(child, 'SIGKILL');
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

function stop(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup(child, 'SIGTERM');
  });
}

/** Resolves when the child exits, rejecting if it fails or outlives the time limit (then killed). */
export function waitForExit(child: ChildProcess, timeoutMs: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      reject(new Error(`${what} did not finish within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal) reject(new Error(`${what} was killed by ${signal}`));
      else resolve(code ?? 0);
    });
  });
}

/** A loopback port nothing listens on now; the service is then started on it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A loopback port nothing listens on now, below the kernel's ephemeral range (32768 and up on
 * Linux): a port from that range (freePort) may be taken, between the probe and a server's bind,
 * by any outgoing connection's local end, which a long-lived server like PostgreSQL cannot retry.
 */
export async function freePortBelowEphemeral(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  return freePort();
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Polls until the port accepts connections; fails early if the child exits first. */
export async function waitForPort(port: number, child: ChildProcess, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited before listening`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not listen on port ${port} within ${timeoutMs / 1000} s`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Resolves with the first output of a child that matches, e.g. the bare server's port on stdout or
 * the service's "listening" log line on stderr.
 */
export function firstMatchingLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
  stream: 'stdout' | 'stderr' = 'stdout',
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} printed nothing matching ${pattern} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child[stream]?.setEncoding('utf8');
    let found = false;
    child[stream]?.on('data', (chunk: string) => {
      if (found) return;
      buffered += chunk;
      const match = pattern.exec(buffered);
      if (match) {
        found = true;
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`${what} exited before printing ${pattern}`));
    });
  });
}

export const CLOCK_TICKS_PER_SECOND = readClockTicks();

function readClockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** The process and its descendants (the workers of a WORKERS=n service), from /proc. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let index = 0; index < tree.length; index++) {
    for (const child of procFile(tree[index], `task/${tree[index]}/children`).trim().split(/\s+/))
      if (child) tree.push(Number(child));
  }
  return tree;
}

/** A file of /proc/<pid>/, or '' when the process has exited since it was listed. */
export function procFile(pid: number, name: string): string {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * User plus system CPU seconds the process and its descendants have used so far, from
 * /proc/<pid>/stat (fields 14 and 15, utime and stime, in clock ticks). Fields are counted after
 * the ")" closing the command name, which may itself hold spaces.
 */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** The same CPU seconds, user (the process's own code) and system (the kernel's, in its system calls) apart. */
export function cpuTimes(pid: number): { user: number; system: number } {
  let user = 0;
  let system = 0;
  for (const member of processTree(pid)) {
    const stat = procFile(member, 'stat');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state), so field N is fields[N - 3].
    user += Number(fields[11]);
    system += Number(fields[12]);
  }
  return { user: user / CLOCK_TICKS_PER_SECOND, system: system / CLOCK_TICKS_PER_SECOND };
}

/**
 * CPU seconds the whole machine has spent busy so far, over all cores, from the first line of
 * /proc/stat: user, nice, system, irq, softirq and steal (time a hypervisor gave to someone else).
 */
export function machineBusySeconds(): number {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

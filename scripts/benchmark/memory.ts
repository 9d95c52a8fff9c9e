import { procFile, processTree } from '../../test/support/processes';

/**
 * The service's memory while it runs: the sum over its processes of each one's proportional set
 * size (Pss in /proc/<pid>/smaps_rollup), sampled twice a second, and the highest sum seen.
 *
 * Pss rather than the sum of each process's resident size: the workers of a WORKERS=n service map
 * the same Node.js executable and libraries, and resident sizes count those pages once per
 * process. Pss shares each page among the processes that map it, so the sum is the memory the
 * service takes from the machine. For a single process it equals its resident size.
 */
export class MemorySampler {
  private peakKilobytes = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 500,
  ) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.sample();
  }

  /** Takes a last sample and stops; resolves to the peak in megabytes. */
  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return this.peakKilobytes / 1024;
  }

  private sample(): void {
    let total = 0;
    for (const member of processTree(this.pid)) total += kilobytes(member, 'smaps_rollup', 'Pss');
    this.peakKilobytes = Math.max(this.peakKilobytes, total);
  }
}

/**
 * The sum over the service's processes of each one's peak resident size (VmHWM), which counts shared pages once per
 * process.
 */
export function residentPeaksMegabytes(pid: number): number {
  return processTree(pid).reduce((sum, member) => sum + kilobytes(member, 'status', 'VmHWM'), 0) / 1024;
}

function kilobytes(pid: number, file: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(procFile(pid, file));
  return match ? Number(match[1]) : 0;
}

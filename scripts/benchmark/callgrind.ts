import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * A process run under valgrind's callgrind, driven by callgrind_control: instrumented only from
 * `instrument()` on (the start, the store's creation and the warm-up run at native-ish speed),
 * its counters zeroed and dumped around each measured batch. callgrind counts the instructions the
 * process executes, whatever else the machine runs, so a figure repeats within a few per cent on
 * a busy machine where CPU time does not.
 */
export class CallgrindControl {
  private dumps = 0;

  /**
   * `outFile` is the --callgrind-out-file the process was started with; `environment` is its own,
   * since vgdb finds the process by the HOST and USER it was started with.
   */
  constructor(
    private readonly pid: number,
    private readonly outFile: string,
    private readonly environment: NodeJS.ProcessEnv,
  ) {}

  instrument(): void {
    this.control(['--instr=on']);
  }

  zero(): void {
    this.control(['--zero']);
  }

  /** Dumps the counters since the last zero and returns the instructions executed (callgrind's Ir). */
  async instructions(): Promise<number> {
    this.control(['--dump']);
    this.dumps += 1;
    const file = `${this.outFile}.${this.dumps}`;
    for (let waited = 0; waited < 30_000; waited += 50) {
      if (existsSync(file)) {
        const summary = /^summary: (\d+)/m.exec(readFileSync(file, 'utf8'));
        if (summary) return Number(summary[1]);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`callgrind wrote no dump ${file} within 30 s`);
  }

  private control(args: readonly string[]): void {
    const result = spawnSync('callgrind_control', [...args, String(this.pid)], {
      env: this.environment,
      encoding: 'utf8',
    });
    if (result.status !== 0 || /error|failed/i.test(result.stderr))
      throw new Error(`callgrind_control ${args.join(' ')} failed: ${result.stderr.trim()}`);
  }
}

/** The command line that starts `entry` under callgrind, uninstrumented until told. */
export function callgrindArguments(outFile: string, entry: string): string[] {
  return [
    '--tool=callgrind',
    '--trace-children=no',
    '--instr-atstart=no',
    `--callgrind-out-file=${outFile}`,
    process.execPath,
    entry,
  ];
}

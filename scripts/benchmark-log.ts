/**
 * What an access line costs the process that serves the call: the hand-written log
 * (src/lib/log.ts, lines gathered and written 16 KiB at a time) against pino with its asynchronous
 * destination (sonic-boom, gathering just under 16 KiB, its most), each writing the same request's line to a file,
 * as a service's log under journald or a log file is taken in.
 *
 *   npm run bench:log                  5 rounds of 200,000 lines each way, alternately
 *   npm run bench:log -- --lines 50000 --rounds 3
 *
 * Each round runs each logger in a child process of its own (its stderr a file in a temporary
 * folder) that writes the lines and reports its own CPU time (user + system) from the first line
 * to the last byte written; the figure is that time over the lines. The order alternates per round.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const LOGGERS = ['hand-written', 'pino'] as const;
type Logger = (typeof LOGGERS)[number];

/** A request record as the server fills it in for a typical call. */
const RECORD = {
  id: 'a1b2c3d4e5f60718',
  startedAt: 0,
  address: '10.20.30.40',
  endpoint: '/GetStudentsInformation.asmx',
  operation: 'GetStudentInfoById',
  binding: 'soap11',
  caller: 'parent-portal',
  outcome: 'ok',
};

async function child(logger: Logger, lines: number): Promise<void> {
  // Each logger is loaded before the clock starts: what is measured is the lines.
  const { configureLog, flushLog } = await import('../src/lib/log');
  const { logRequest } = await import('../src/telemetry/access-log');
  const { default: pino } = await import('pino');
  const started = process.cpuUsage();
  if (logger === 'hand-written') {
    configureLog({ logLevel: 'info', logFormat: 'json' });
    for (let index = 0; index < lines; index += 1) logRequest(RECORD, 200, 0.123 + (index % 7) / 1000);
    flushLog();
    await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  } else {
    const destination = pino.destination({ dest: 2, sync: false, minLength: 16 * 1024 - 1 });
    const log = pino(
      {
        base: null,
        messageKey: 'message',
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label: string) => ({ level: label }) },
      },
      destination,
    );
    for (let index = 0; index < lines; index += 1) {
      log.info(
        {
          requestId: RECORD.id,
          caller: RECORD.caller,
          address: RECORD.address,
          endpoint: RECORD.endpoint,
          operation: RECORD.operation,
          binding: RECORD.binding,
          status: 200,
          durationMs: 0.123 + (index % 7) / 1000,
        },
        'request',
      );
    }
    await new Promise<void>((resolve) => destination.flush(() => resolve()));
  }
  const used = process.cpuUsage(started);
  process.stdout.write(`${(used.user + used.system) / lines}\n`);
}

function wholeFlag(args: string[], flag: string, fallback: number): number {
  const at = args.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a whole number`);
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function parent(args: string[]): void {
  const lines = wholeFlag(args, '--lines', 200_000);
  const rounds = wholeFlag(args, '--rounds', 5);
  const folder = mkdtempSync(join(tmpdir(), 'benchmark-log-'));
  const figures = new Map<Logger, number[]>(LOGGERS.map((logger) => [logger, []]));
  const bytes = new Map<Logger, number>();
  try {
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? LOGGERS : [...LOGGERS].reverse();
      for (const logger of order) {
        const file = join(folder, `${logger}.log`);
        const fd = openSync(file, 'w');
        const run = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', logger, String(lines)], {
          stdio: ['ignore', 'pipe', fd],
          encoding: 'utf8',
        });
        closeSync(fd);
        if (run.status !== 0) throw new Error(`${logger} failed (exit ${run.status})`);
        figures.get(logger)?.push(Number(run.stdout.trim()));
        bytes.set(logger, statSync(file).size / lines);
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(`${new Date().toString()} | node ${process.version} | ${cpus().length} cores`);
  console.log(`${lines.toLocaleString('en-US')} access lines to a file, ${rounds} rounds alternated; medians`);
  for (const logger of LOGGERS) {
    const runs = figures.get(logger) as number[];
    const range = `${Math.min(...runs).toFixed(2)}-${Math.max(...runs).toFixed(2)}`;
    const size = `${bytes.get(logger)?.toFixed(0)} bytes a line`;
    console.log(`${logger.padEnd(13)} ${median(runs).toFixed(2)} us CPU per line (${range})  ${size}`);
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  void child(args[1] as Logger, Number(args[2]));
} else {
  parent(args);
}

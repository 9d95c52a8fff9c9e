/** Command-line flags of the benchmark; every run is bounded by them. */
export interface Options {
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly threads: number;
  readonly rounds: number;
  /** Cores other processes may take during a run before it is repeated. */
  readonly maxOtherLoad: number;
  readonly build: boolean;
  /** Only scenarios whose name contains this text (case-insensitive). */
  readonly only: string | undefined;
  /** Run the service at LOG_LEVEL=info, its access line per request written to a file, as in production. */
  readonly accessLog: boolean;
  /** A git ref measured beside the work tree, alternately in the same run. */
  readonly compare: string | undefined;
}

export const USAGE = `Usage: npm run bench -- [flags]
  --duration <s>             seconds per measured run (default 5)
  --warmup <s>               seconds of warm-up per scenario and server (default 3)
  --connections <n>          concurrent connections (default 4)
  --threads <n>              wrk threads (default 1)
  --rounds <n>               measured runs per scenario and server; the table shows medians (default 3)
  --max-other-load <cores>   repeat a run (3 attempts in all) during which other processes took
                             more than this many cores (default 0.1)
  --only <text>              only scenarios whose name contains <text>, e.g. "HelloWorld SOAP 1.1"
  --no-build                 measure the existing dist/ instead of building first
  --access-log               log at info (an access line per request) to a file, as a service in
                             production does; without it the service logs warnings only
  --compare <ref>            also build the git ref <ref> (a temporary git worktree) and measure it
                             beside the work tree and the bare server, alternately in each round
  --help`;

export class UsageError extends Error {}

/** A flag's whole-number value within its bounds; a UsageError names the flag otherwise. */
export function wholeNumber(flag: string, raw: string | undefined, min: number, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw)) throw new UsageError(`${flag} needs a whole number`);
  const value = Number(raw);
  if (value < min || value > max) throw new UsageError(`${flag} must be between ${min} and ${max}`);
  return value;
}

/** Undefined when --help was asked for. */
export function parseOptions(args: readonly string[]): Options | undefined {
  const options = {
    durationSeconds: 5,
    warmupSeconds: 3,
    connections: 4,
    threads: 1,
    rounds: 3,
    maxOtherLoad: 0.1,
    build: true,
    only: undefined as string | undefined,
    accessLog: false,
    compare: undefined as string | undefined,
  };
  for (let index = 0; index < args.length; index += 1) {
    const flag = args[index];
    const value = () => args[++index];
    switch (flag) {
      case '--duration':
        options.durationSeconds = wholeNumber(flag, value(), 1, 120);
        break;
      case '--warmup':
        options.warmupSeconds = wholeNumber(flag, value(), 0, 60);
        break;
      case '--connections':
        options.connections = wholeNumber(flag, value(), 1, 1000);
        break;
      case '--threads':
        options.threads = wholeNumber(flag, value(), 1, 64);
        break;
      case '--rounds':
        options.rounds = wholeNumber(flag, value(), 1, 20);
        break;
      case '--max-other-load': {
        const raw = value();
        if (raw === undefined || !/^\d+(\.\d+)?$/.test(raw))
          throw new UsageError(`${flag} needs a number of cores, such as 0.1`);
        options.maxOtherLoad = Number(raw);
        break;
      }
      case '--only':
        options.only = value();
        if (!options.only) throw new UsageError('--only needs a text');
        break;
      case '--no-build':
        options.build = false;
        break;
      case '--access-log':
        options.accessLog = true;
        break;
      case '--compare':
        options.compare = value();
        if (!options.compare || options.compare.startsWith('-')) throw new UsageError('--compare needs a git ref');
        break;
      case '--help':
        return undefined;
      default:
        throw new UsageError(`unknown flag ${flag}`);
    }
  }
  if (options.threads > options.connections)
    throw new UsageError('--threads cannot exceed --connections (wrk needs a connection per thread)');
  return options;
}

/** A benchmark's options from its command line; on --help (exit 0) or a wrong flag (exit 2), its usage and the end. */
export function optionsOrExit<T>(parse: (args: readonly string[]) => T | undefined, usage: string): T {
  let options: T | undefined;
  try {
    options = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  if (options === undefined) {
    console.log(usage);
    process.exit(0);
  }
  return options;
}

/**
 * Instructions per call of the compiled service, counted by valgrind's callgrind: HelloWorld over
 * SOAP 1.1, an unknown student's lookup (the documented profile, a void answer) and a real
 * student on the typed profile. Instruction counts repeat within a few per cent however busy the
 * machine is, where CPU time per call does not; they measure a change to the call path, not its
 * speed on an idle core (a cache miss or a system call's wait costs no instructions here).
 *
 *   npm run bench:instructions                     build, then measure the work tree
 *   npm run bench:instructions -- --compare main   main too, in the same run
 *   npm run bench:instructions -- --no-build --calls 2000 --batches 3 --only HelloWorld
 *
 * Each build's service runs under callgrind at LOG_LEVEL=info (its log to a file, an access line
 * a request), uninstrumented through its start (and the demo school's creation); then, per
 * scenario, a warm-up of `--warmup` calls (the JIT settled) and, per batch: its counters zeroed,
 * one client on a kept-alive connection sending the scenario's request `--calls` times one after
 * another, and the counters dumped. The figure is the batch's instructions over its calls (the
 * median batch); the client runs outside valgrind.
 * What the process does between calls (its timers) lands in the figure too: a few per cent at
 * valgrind's pace, the same for every build.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForPort, freePort, ProcessGroup } from '../test/support/processes';
import { benchmarkServiceEnvironment, buildService } from './benchmark/build';
import { CallgrindControl, callgrindArguments } from './benchmark/callgrind';
import { checkOutRef, type ServiceBuild, WORK_TREE_BUILD } from './benchmark/compare-ref';
import { optionsOrExit, UsageError, wholeNumber } from './benchmark/options';
import { runMain } from './benchmark/run-main';
import { HELLO_WORLD, REAL_STUDENT, type Scenario, scenariosFor, VOID_LOOKUP } from './benchmark/scenarios';

const SCENARIOS: readonly Scenario[] = [
  scenariosFor(HELLO_WORLD)[0],
  scenariosFor(VOID_LOOKUP)[0],
  scenariosFor(REAL_STUDENT, 'typed')[0],
];

const USAGE = `Usage: npm run bench:instructions -- [flags]
  --compare <ref>   also build the git ref <ref> (a temporary git worktree) and count it in the same run
  --calls <n>       calls per measured batch (default 2000)
  --batches <n>     measured batches per scenario; the table shows the median (default 5)
  --warmup <n>      calls per scenario before counting, instrumented (default 3000)
  --only <text>     only scenarios whose name contains <text>
  --no-build        count the existing dist/ instead of building first
  --help`;

interface Options {
  compare?: string;
  calls: number;
  batches: number;
  warmup: number;
  only?: string;
  build: boolean;
}

function parseOptions(args: readonly string[]): Options | undefined {
  const options: Options = { calls: 2000, batches: 5, warmup: 3000, build: true };
  for (let index = 0; index < args.length; index += 1) {
    const flag = args[index];
    const value = () => args[++index];
    if (flag === '--compare') options.compare = value();
    else if (flag === '--calls') options.calls = wholeNumber(flag, value(), 10, 100_000);
    else if (flag === '--batches') options.batches = wholeNumber(flag, value(), 1, 20);
    else if (flag === '--warmup') options.warmup = wholeNumber(flag, value(), 0, 100_000);
    else if (flag === '--only') options.only = value();
    else if (flag === '--no-build') options.build = false;
    else if (flag === '--help') return undefined;
    else throw new UsageError(`unknown flag ${flag}`);
  }
  if (options.compare !== undefined && (!options.compare || options.compare.startsWith('-')))
    throw new UsageError('--compare needs a git ref');
  return options;
}

/** Sends a scenario `count` times, one after another, on one kept-alive connection; a status not 200 stops it. */
async function sendCalls(agent: Agent, port: number, scenario: Scenario, count: number): Promise<void> {
  const headers: Record<string, string | number> = { ...scenario.headers };
  if (scenario.method === 'POST') headers['Content-Length'] = Buffer.byteLength(scenario.body);
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request(
        { host: '127.0.0.1', port, method: scenario.method, path: scenario.path, headers, agent },
        (incoming) => {
          if (incoming.statusCode !== 200) reject(new Error(`${scenario.name}: status ${incoming.statusCode}`));
          incoming.resume();
          incoming.on('end', resolve);
        },
      );
      outgoing.setTimeout(60_000, () => outgoing.destroy(new Error(`${scenario.name}: no answer within 60 s`)));
      outgoing.on('error', reject);
      outgoing.end(scenario.method === 'POST' ? scenario.body : undefined);
    });
  for (let sent = 0; sent < count; sent += 1) await once();
}

interface Counted {
  readonly build: string;
  readonly scenario: string;
  readonly perCall: number[];
}

/** Starts one build's service of one kind under callgrind, warms its scenarios up and counts them. */
async function countBuild(
  group: ProcessGroup,
  build: ServiceBuild,
  scenarios: readonly Scenario[],
  directory: string,
  options: Options,
): Promise<Counted[]> {
  const port = await freePort();
  const typed = scenarios[0].service === 'typed';
  const environment = benchmarkServiceEnvironment(port, join(directory, 'data'), {
    LOG_LEVEL: 'info',
    ...(typed ? { CONTRACT: 'typed', DEMO_DATA: 'on' } : {}),
  });
  const outFile = join(directory, 'callgrind.out');
  const child = group.spawn('valgrind', callgrindArguments(outFile, build.entry), {
    cwd: build.cwd,
    env: environment,
    stdio: ['ignore', 'ignore', openSync(join(directory, 'service.log'), 'w')],
  });
  await waitForPort(port, child, 600_000, `the service (${build.label}) under valgrind`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const control = new CallgrindControl(child.pid as number, outFile, environment);
    control.instrument();
    const counted: Counted[] = [];
    for (const scenario of scenarios) {
      // Warmed up instrumented, right before it is counted: warmed up at native speed, or before
      // another scenario, its first batches counted the JIT's and the collector's settling too.
      await sendCalls(agent, port, scenario, options.warmup);
      const perCall: number[] = [];
      for (let batch = 0; batch < options.batches; batch += 1) {
        control.zero();
        await sendCalls(agent, port, scenario, options.calls);
        perCall.push((await control.instructions()) / options.calls);
      }
      counted.push({ build: build.label, scenario: scenario.name, perCall });
      console.log(`  ${scenario.name} (${build.label}): ${perCall.map((n) => Math.round(n)).join(', ')}`);
    }
    return counted;
  } finally {
    agent.destroy();
  }
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The median, over batches, of the first build's figure over the second's in the same batch: the
 * two services run side by side, so what the machine's state adds to a batch (timers that fire by
 * the clock, at valgrind's pace) meets both, and the ratio holds steadier than either figure.
 */
function batchRatio(results: readonly Counted[], builds: readonly ServiceBuild[], scenario: Scenario): number {
  const [first, second] = builds.map(
    (build) =>
      results.find((result) => result.build === build.label && result.scenario === scenario.name)?.perCall ?? [],
  );
  return median(first.map((figure, batch) => figure / second[batch]));
}
const thousands = (value: number) => `${(value / 1000).toFixed(1)} k`;

function printTable(
  results: readonly Counted[],
  builds: readonly ServiceBuild[],
  scenarios: readonly Scenario[],
): void {
  // The lowest batch beside the median: what fires by the clock only ever adds to a batch.
  const header = ['Scenario (instructions per call: median batch, lowest)', ...builds.map((build) => build.label)];
  if (builds.length === 2) header.push(`${builds[0].label} / ${builds[1].label} (median of batches)`);
  const lines = [`| ${header.join(' | ')} |`, `|---${'|---:'.repeat(header.length - 1)}|`];
  for (const scenario of scenarios) {
    const cells = builds.map((build) => {
      const found = results.find((result) => result.build === build.label && result.scenario === scenario.name);
      if (!found) return '-';
      return `${thousands(median(found.perCall))}, ${thousands(Math.min(...found.perCall))}`;
    });
    if (builds.length === 2) cells.push(batchRatio(results, builds, scenario).toFixed(3));
    lines.push(`| ${scenario.name} | ${cells.join(' | ')} |`);
  }
  console.log('');
  console.log(lines.join('\n'));
  console.log('');
  console.log(`${new Date().toISOString()} | node ${process.version} | ${cpus().length} cores | valgrind callgrind`);
}

async function main(): Promise<void> {
  const options = optionsOrExit(parseOptions, USAGE);
  if (spawnSync('valgrind', ['--version']).error)
    throw new Error('valgrind is not installed (apt-get install valgrind)');
  const only = options.only?.toLowerCase();
  const scenarios = SCENARIOS.filter((scenario) => !only || scenario.name.toLowerCase().includes(only));
  if (scenarios.length === 0) throw new Error(`no scenario matches --only ${options.only}`);

  const group = new ProcessGroup();
  const workDirectory = mkdtempSync(join(tmpdir(), 'benchmark-instructions-'));
  let removeRef: () => void = () => undefined;
  const cleanUp = async () => {
    await group.stopAll(10_000);
    removeRef();
    rmSync(workDirectory, { recursive: true, force: true });
  };
  process.once('exit', () => group.killAllNow());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }
  try {
    if (options.build) buildService();
    const builds = [WORK_TREE_BUILD];
    if (options.compare) {
      const ref = checkOutRef(options.compare, workDirectory);
      removeRef = ref.remove;
      builds.push(ref.build);
    }
    const results: Counted[] = [];
    for (const kind of ['documented', 'typed'] as const) {
      const ofKind = scenarios.filter((scenario) => scenario.service === kind);
      if (ofKind.length === 0) continue;
      // The builds side by side in each kind, so that a drift of the machine's state meets both.
      await Promise.all(
        builds.map((build, index) => {
          const directory = join(workDirectory, kind, String(index));
          mkdirSync(directory, { recursive: true });
          console.log(`Counting ${ofKind.map((scenario) => scenario.name).join(', ')} on ${build.label} ...`);
          return countBuild(group, build, ofKind, directory, options).then((counted) => results.push(...counted));
        }),
      );
      await group.stopAll(10_000);
    }
    printTable(results, builds, scenarios);
  } finally {
    await cleanUp();
  }
}

runMain('benchmark', main);

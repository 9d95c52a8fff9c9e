/**
 * Throughput, p99 latency and server CPU per call of the compiled service, beside a bare
 * node:http server answering the same bytes, measured in the same run with the same load tool
 * (wrk; see scripts/benchmark/wrk.ts for why) and concurrency, on loopback only.
 *
 *   npm run bench                      build with tsc, then measure every scenario
 *   npm run bench -- --no-build        measure the existing dist/
 *   npm run bench -- --compare main    the git ref main beside the work tree, alternately in one run
 *   npm run bench -- --help            the flags (duration, warm-up, connections, rounds, ...)
 *
 * It builds the service first (tsc -p scripts/benchmark/tsconfig.service.json: src/ into
 * dist/src/ with the project's options) unless --no-build is given, so the figures are always
 * those of the current source; a build with errors stops it. Then, for each kind of service the
 * scenarios need (see scripts/benchmark/scenarios.ts): start the service from dist/src/main.js on
 * a free port, in a temporary folder of its own (the documented profile on an empty SQLite store,
 * or the typed profile on the demo school a new store gets); send each of its scenarios once and
 * keep the response; start a bare server (scripts/benchmark/bare-server.js) with those responses
 * and check that it answers each request byte for byte alike. Warm every pair up; then, per
 * round, run each scenario against its service and its bare server, alternating which goes
 * first. CPU per call is the server process's utime + stime from /proc/<pid>/stat around the run,
 * divided by the requests wrk completed. A run during which other processes took CPU is repeated
 * (see --max-other-load). Every process it starts is stopped at the end, on error and on Ctrl-C.
 *
 * With --compare REF, REF is checked out into a temporary git worktree and built there
 * (scripts/benchmark/compare-ref.ts); each scenario then runs against the work tree's service,
 * REF's service and the bare server in turn, the order rotating each round, and the table shows
 * both services beside the same bare runs: a change's before and after from one run of the machine.
 */
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkServiceEnvironment, buildService, checkBenchmarkTools, ROOT } from './benchmark/build';
import { captureResponses, checkAnswersAlike, responsesFile, type CapturedResponse } from './benchmark/capture';
import { checkOutRef, type ServiceBuild, WORK_TREE_BUILD } from './benchmark/compare-ref';
import { optionsOrExit, parseOptions, USAGE, type Options } from './benchmark/options';
import { firstMatchingLine, freePort, ProcessGroup, waitForPort } from '../test/support/processes';
import {
  clientCpuRange,
  formatTable,
  maximumOtherLoad,
  serviceToBareRatio,
  type ScenarioRuns,
} from './benchmark/report';
import { SCENARIOS, type Scenario, type ServiceKind } from './benchmark/scenarios';
import { runWrk, writeWrkScript, type LoadResult, type LoadSettings } from './benchmark/wrk';

const BARE_SERVER = join(ROOT, 'scripts', 'benchmark', 'bare-server.js');
const GOAL = { scenario: 'HelloWorld SOAP 1.1', ratio: 0.4 };
/** A run disturbed by other processes is repeated, up to this many attempts in all. */
const ATTEMPTS = 3;

interface Target {
  /** 'bare', or the build of the service. */
  readonly label: string;
  readonly pid: number;
  readonly port: number;
}

/** What each kind of service runs with beyond the benchmark's environment. */
const SERVICE_SETTINGS: Readonly<Record<ServiceKind, Readonly<Record<string, string>>>> = {
  // An empty store: the documented scenarios read no data (the void lookup finds no one).
  documented: {},
  // The demo school a new embedded store gets on its first start: the typed scenarios read a real student.
  typed: { CONTRACT: 'typed', DEMO_DATA: 'on' },
};

/** The services of one kind (a build each), and the bare server answering with the bytes of the first. */
interface Pair {
  readonly services: readonly Target[];
  readonly bare: Target;
}

async function startService(
  group: ProcessGroup,
  directory: string,
  kind: ServiceKind,
  accessLog: boolean,
  build: ServiceBuild,
): Promise<Target> {
  const port = await freePort();
  const settings = { ...SERVICE_SETTINGS[kind], ...(accessLog ? { LOG_LEVEL: 'info' } : {}) };
  const child = group.spawn(process.execPath, [build.entry], {
    cwd: build.cwd,
    // A store of its own in the temporary folder: data/ stays untouched.
    env: benchmarkServiceEnvironment(port, join(directory, 'data'), settings),
    // With the access log, a line a request goes to a file, as journald or a log file takes it in production.
    stdio: ['ignore', 'inherit', accessLog ? openSync(join(directory, 'service.log'), 'w') : 'inherit'],
  });
  await waitForPort(port, child, 60_000, `the ${kind} service (${build.label})`);
  return { label: build.label, pid: child.pid as number, port };
}

async function startBareServer(group: ProcessGroup, responses: string): Promise<Target> {
  const child = group.spawn(process.execPath, [BARE_SERVER, responses], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, port] = await firstMatchingLine(child, /^listening (\d+)$/m, 10_000, 'the bare server');
  return { label: 'bare', pid: child.pid as number, port: Number(port) };
}

/** A scenario that must show a record (not an empty answer) stops the benchmark when it does not. */
function checkAnswersShow(scenarios: readonly Scenario[], captured: readonly CapturedResponse[]): void {
  for (const [index, scenario] of scenarios.entries()) {
    const body = captured[index].body.toString('utf8');
    if (scenario.answerShows && !scenario.answerShows.test(body))
      throw new Error(`${scenario.name}: the answer does not show ${scenario.answerShows}: ${body}`);
  }
}

/** Starts the service of one kind in each build, and a bare server answering its scenarios with the bytes it gave. */
async function startPair(
  group: ProcessGroup,
  options: Options,
  kind: ServiceKind,
  scenarios: readonly Scenario[],
  workDirectory: string,
  builds: readonly ServiceBuild[],
): Promise<Pair> {
  const services: Target[] = [];
  for (const [index, build] of builds.entries()) {
    const directory = join(workDirectory, kind, String(index));
    mkdirSync(directory, { recursive: true });
    services.push(await startService(group, directory, kind, options.accessLog, build));
  }
  const captured = await captureResponses(services[0].port, scenarios);
  checkAnswersShow(scenarios, captured);
  for (const other of services.slice(1)) {
    // A change may change an answer on purpose: said, not refused.
    await checkAnswersAlike(other.port, scenarios, captured, other.label).catch((error: Error) =>
      console.log(`Note: ${error.message}`),
    );
  }
  const responses = join(workDirectory, kind, 'responses.json');
  writeFileSync(responses, responsesFile(scenarios, captured));
  const bare = await startBareServer(group, responses);
  await checkAnswersAlike(bare.port, scenarios, captured, 'bare server');
  return { services, bare };
}

async function measure(
  group: ProcessGroup,
  options: Options,
  scenarios: readonly Scenario[],
  workDirectory: string,
  builds: readonly ServiceBuild[],
): Promise<ScenarioRuns[]> {
  const pairs = new Map<ServiceKind, Pair>();
  for (const kind of new Set(scenarios.map((scenario) => scenario.service))) {
    const ofKind = scenarios.filter((scenario) => scenario.service === kind);
    pairs.set(kind, await startPair(group, options, kind, ofKind, workDirectory, builds));
  }
  const pairOf = (index: number) => pairs.get(scenarios[index].service) as Pair;

  const scripts = scenarios.map((scenario, index) => writeWrkScript(workDirectory, index, scenario));
  const settings: LoadSettings = {
    connections: options.connections,
    threads: options.threads,
    durationSeconds: options.durationSeconds,
  };
  const run = (target: Target, index: number, durationSeconds = settings.durationSeconds) =>
    runWrk(group, scripts[index], `http://127.0.0.1:${target.port}${scenarios[index].path}`, target.pid, {
      ...settings,
      durationSeconds,
    });

  if (options.warmupSeconds > 0) {
    console.log(`Warming up (${options.warmupSeconds} s per scenario and server) ...`);
    for (const index of scenarios.keys()) {
      const { services, bare } = pairOf(index);
      for (const target of [...services, bare]) await run(target, index, options.warmupSeconds);
    }
  }
  // Per scenario, a row per build; the rows of one scenario share its bare runs.
  const named = (scenario: Scenario, build: ServiceBuild) =>
    builds.length === 1 ? scenario.name : `${scenario.name} (${build.label})`;
  const rows = scenarios.map((scenario) => {
    const bare: LoadResult[] = [];
    return builds.map((build) => ({ name: named(scenario, build), service: [] as LoadResult[], bare }));
  });
  for (let round = 0; round < options.rounds; round += 1) {
    console.log(`Round ${round + 1} of ${options.rounds} ...`);
    for (const index of scenarios.keys()) {
      // Rotating which server goes first keeps a slow drift of the machine off the ratios.
      const { services, bare } = pairOf(index);
      const targets = [...services, bare];
      const order = targets.map((_, at) => targets[(at + round) % targets.length]);
      for (const target of order) {
        const what = `${scenarios[index].name} on the ${target.label} server`;
        const result = await runUndisturbed(() => run(target, index), what, options);
        const build = services.indexOf(target);
        if (build < 0) rows[index][0].bare.push(result);
        else rows[index][build].service.push(result);
      }
    }
  }
  return rows.flat();
}

/** Repeats a run that other processes disturbed, up to ATTEMPTS in all; the last attempt stands. */
async function runUndisturbed(run: () => Promise<LoadResult>, what: string, options: Options): Promise<LoadResult> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await run();
    if (result.errors > 0) throw new Error(`${what}: ${result.errors} errors or non-2xx responses`);
    if (result.otherCores <= options.maxOtherLoad || attempt === ATTEMPTS) return result;
    console.log(`  ${what}: other processes took ${result.otherCores.toFixed(2)} cores; repeating the run`);
  }
}

function printReport(options: Options, results: readonly ScenarioRuns[]): void {
  console.log('');
  console.log(`${new Date().toString()} | node ${process.version} | ${cpus().length} cores`);
  console.log(
    `wrk -t${options.threads} -c${options.connections}, ${options.durationSeconds} s per run, ` +
      `${options.warmupSeconds} s warm-up, medians of ${options.rounds} round(s); ` +
      'ratio = service req/s / bare req/s within a round; CPU/call = server utime+stime / requests',
  );
  console.log('');
  console.log(formatTable(results));
  const [clientLow, clientHigh] = clientCpuRange(results);
  console.log(`\nwrk itself used ${clientLow.toFixed(1)}-${clientHigh.toFixed(1)} us of CPU per request.`);
  const disturbed = results.filter((runs) => maximumOtherLoad(runs) > options.maxOtherLoad);
  if (disturbed.length > 0) {
    console.log(
      `Warning: other processes took more than ${options.maxOtherLoad} cores during runs of ` +
        `${disturbed.map((runs) => runs.name).join(', ')}; those figures are disturbed.`,
    );
  }
  const goal = results.find((runs) => [GOAL.scenario, `${GOAL.scenario} (work tree)`].includes(runs.name));
  if (goal) {
    const ratio = serviceToBareRatio(goal);
    console.log(
      `\nGoal: ${GOAL.scenario} at ${options.connections} connections >= ${GOAL.ratio} of bare: ` +
        `${ratio.toFixed(2)} ${ratio >= GOAL.ratio ? '(met)' : '(NOT met)'}`,
    );
  }
}

async function main(): Promise<number> {
  const options = optionsOrExit(parseOptions, USAGE);
  const only = options.only?.toLowerCase();
  const scenarios = SCENARIOS.filter((scenario) => !only || scenario.name.toLowerCase().includes(only));
  if (scenarios.length === 0) {
    console.error(
      `no scenario matches --only ${options.only}; the scenarios are: ` +
        `${SCENARIOS.map((scenario) => scenario.name).join(', ')}`,
    );
    return 2;
  }

  const group = new ProcessGroup();
  const workDirectory = mkdtempSync(join(tmpdir(), 'benchmark-'));
  let removeRef: () => void = () => undefined;
  const cleanUp = async () => {
    await group.stopAll();
    removeRef();
    rmSync(workDirectory, { recursive: true, force: true });
  };
  process.once('exit', () => group.killAllNow());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping everything the benchmark started`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    if (options.build) buildService();
    checkBenchmarkTools();
    const builds = [WORK_TREE_BUILD];
    if (options.compare) {
      const ref = checkOutRef(options.compare, workDirectory);
      removeRef = ref.remove;
      builds.push(ref.build);
    }
    const results = await measure(group, options, scenarios, workDirectory, builds);
    printReport(options, results);
    return 0;
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

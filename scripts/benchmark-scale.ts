/**
 * The service at school scale: how long a 20,000-student school takes to generate on the embedded
 * store, then each query operation's throughput, latency and CPU per call against it over SOAP
 * 1.1, beside its floor, and the service's peak memory. A benchmark, not a test: it prints
 * figures and verdicts on issue 15's goals, and fails only when something does not run.
 *
 *   npm run bench:scale                                   20,000 students, 5 s per operation
 *   npm run bench:scale -- --students 5000 --duration 3 --connections 4 --only Marks --no-build
 *   npm run bench:scale -- --workers 2 --warmup 1          two service processes, 1 s of warm-up
 *
 * It builds the service (unless --no-build), generates the school with the demo-data command into
 * a new SQLite store in a temporary folder, picks a few hundred real identifiers of each kind
 * from it, starts the compiled service on that store in the typed profile (so that results are
 * really read and serialised), one process (WORKERS=1: the goals are per process; --workers to
 * change it), and sends every request once to keep its answer. Then it starts the floor
 * (benchmark/floor-server.js: node:http reading the same rows with prepared better-sqlite3
 * statements in raw mode and writing the service's bytes), checks that it answers every request
 * byte for byte alike, and loads each operation with wrk on the service and on the floor, with the
 * same settings and the same requests, each taking the next identifier in turn; which of the two
 * goes first alternates from one operation to the next. CPU per call is the server's utime +
 * stime from /proc around the run, divided by the requests wrk completed. The service's memory is
 * the sum of its processes' proportional set sizes, sampled through the run (see
 * benchmark/memory.ts).
 */
import BetterSqlite3 from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SQLITE_FILE_NAME } from '../src/store/sqlite/files';
import {
  benchmarkServiceEnvironment,
  buildService,
  CLI_ENTRY,
  checkBenchmarkTools,
  ROOT,
  SERVICE_ENTRY,
} from './benchmark/build';
import { captureResponses, checkAnswersAlike, type CapturedResponse } from './benchmark/capture';
import { startFloorServer } from './benchmark/floor';
import { MemorySampler, residentPeaksMegabytes } from './benchmark/memory';
import { wholeNumber } from './benchmark/options';
import { runMain } from './benchmark/run-main';
import { readSchoolLoadOptions, type SchoolLoadOptions, schoolLoadFlags } from './benchmark/school-load-options';
import { firstMatchingLine, freePort, ProcessGroup } from '../test/support/processes';
import { WORKLOADS, type Parameters, type Workload } from './benchmark/scale-workloads';
import { scenariosFor, type Scenario } from './benchmark/scenarios';
import { runWrk, writeWrkScript, type LoadResult } from './benchmark/wrk';

/**
 * What the run is judged against. Issue 15's are per process, measured in one run: every query
 * operation's p99 with one process at 4 connections, and every list operation's CPU per call
 * within this ratio of its floor's.
 */
const GOALS = { generationSeconds: 180, p99Millis: 5, peakMegabytes: 300, floorRatio: 2 };

interface Options extends SchoolLoadOptions {
  readonly workers: number;
  readonly only: string | undefined;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      ...schoolLoadFlags({ students: 20_000, seed: 7, duration: 5, warmup: 2, connections: 4 }),
      workers: { type: 'string', default: '1' },
      only: { type: 'string' },
    },
  });
  return {
    ...readSchoolLoadOptions(values),
    workers: wholeNumber('--workers', values.workers, 1, 64),
    only: values.only?.toLowerCase(),
  };
}

function generateSchool(dataDirectory: string, options: Options): number {
  console.log(`Generating a ${options.students}-student school (seed ${options.seed}) into a new SQLite store ...`);
  const started = process.hrtime.bigint();
  const result = spawnSync(
    process.execPath,
    [CLI_ENTRY, 'demo-data', '--students', String(options.students), '--seed', String(options.seed)],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDirectory, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error(`the demo-data command failed (exit ${result.status})`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const millis = (micros: number) => (micros / 1000).toFixed(2);

/** An operation's requests, one a parameter set. */
interface Requests {
  readonly workload: Workload;
  readonly parameterSets: readonly Parameters[];
  readonly scenarios: readonly Scenario[];
}

/** The same with the service's answer to each, kept before anything is measured. */
interface Load extends Requests {
  readonly captured: readonly CapturedResponse[];
}

interface Measured {
  readonly load: Load;
  readonly service: LoadResult;
  readonly floor: LoadResult;
}

interface Server {
  readonly label: 'service' | 'floor';
  readonly pid: number;
  readonly port: number;
}

/** The SOAP 1.1 request for one parameter set, named with its values for the benchmark's messages. */
function scenarioOf(workload: Workload, parameters: Parameters): Scenario {
  const values = parameters.map(([name, value]) => `${name}=${value}`).join(' ');
  const label = values ? `${workload.operation.label} ${values}` : workload.operation.label;
  return scenariosFor({ ...workload.operation, label, parameters })[0];
}

async function startService(group: ProcessGroup, dataDirectory: string, workers: number): Promise<Server> {
  const port = await freePort();
  const service = group.spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: benchmarkServiceEnvironment(port, dataDirectory, {
      LOG_LEVEL: 'info',
      CONTRACT: 'typed',
      WORKERS: String(workers),
    }),
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // The service logs at info so that its "listening" line (every worker's, with WORKERS>1) shows
  // when it is ready; only its warnings and errors are passed on.
  let partLine = '';
  service.stderr?.setEncoding('utf8');
  service.stderr?.on('data', (chunk: string) => {
    const lines = (partLine + chunk).split('\n');
    partLine = lines.pop() ?? '';
    for (const line of lines) if (/"level":"(warn|error)"/.test(line)) process.stderr.write(`${line}\n`);
  });
  await firstMatchingLine(
    service,
    workers > 1 ? /"message":"workers listening"/ : /"message":"listening"/,
    60_000,
    'the service',
    'stderr',
  );
  return { label: 'service', pid: service.pid as number, port };
}

/** Each operation on the service and on the floor, the same wrk settings and requests for both. */
async function measure(
  group: ProcessGroup,
  options: Options,
  workDirectory: string,
  loads: readonly Load[],
  servers: readonly [Server, Server],
): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const [index, load] of loads.entries()) {
    console.log(`Measuring ${load.workload.operation.name} ...`);
    const script = writeWrkScript(
      workDirectory,
      index,
      load.scenarios[0],
      load.scenarios.map((scenario) => scenario.body),
    );
    const results = new Map<Server['label'], LoadResult>();
    // Alternating which server goes first keeps a slow drift of the machine off the ratios.
    for (const server of index % 2 === 0 ? servers : [servers[1], servers[0]]) {
      const url = `http://127.0.0.1:${server.port}${load.scenarios[0].path}`;
      const settings = { connections: options.connections, threads: 1 };
      await runWrk(group, script, url, server.pid, { ...settings, durationSeconds: options.warmupSeconds });
      const result = await runWrk(group, script, url, server.pid, {
        ...settings,
        durationSeconds: options.durationSeconds,
      });
      if (result.errors > 0)
        throw new Error(`${load.workload.operation.name} on the ${server.label}: ${result.errors} errors or non-2xx`);
      results.set(server.label, result);
    }
    measured.push({ load, service: results.get('service') as LoadResult, floor: results.get('floor') as LoadResult });
  }
  return measured;
}

const verdict = (missed: readonly string[]) => (missed.length === 0 ? 'met' : `NOT met for ${missed.join(', ')}`);

const ratioOf = ({ service, floor }: Measured) => service.cpuMicrosPerRequest / floor.cpuMicrosPerRequest;

function printReport(
  options: Options,
  generationSeconds: number,
  measured: readonly Measured[],
  memory: { peak: number; residentPeaks: number },
): void {
  console.log('');
  console.log(
    `${new Date().toISOString()} | ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB | Node ${process.version}`,
  );
  console.log(
    `School: ${options.students} students, seed ${options.seed}, embedded SQLite. ` +
      `Service: WORKERS=${options.workers}, CONTRACT=typed. ` +
      `Load: wrk, 1 thread, ${options.connections} connections, ${options.durationSeconds} s per operation and ` +
      `server after ${options.warmupSeconds} s of warm-up, SOAP 1.1.`,
  );
  console.log('');
  console.log(
    `Generation: ${generationSeconds.toFixed(1)} s (goal under ${GOALS.generationSeconds} s: ` +
      `${generationSeconds < GOALS.generationSeconds ? 'met' : 'NOT met'})`,
  );
  console.log('');
  console.log(
    '| Operation | Ids rotated | req/s | p50 ms | p99 ms | Floor p99 ms | CPU/call µs | Floor CPU/call µs | Ratio | ' +
      'Other cores |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of measured) {
    const { load, service, floor } = row;
    console.log(
      `| ${load.workload.operation.name}${load.workload.list ? '' : ' (not a list)'} | ${load.scenarios.length} | ` +
        `${Math.round(service.requestsPerSecond).toLocaleString('en-US')} | ${millis(service.p50Micros)} | ` +
        `${millis(service.p99Micros)} | ${millis(floor.p99Micros)} | ${service.cpuMicrosPerRequest.toFixed(0)} | ` +
        `${floor.cpuMicrosPerRequest.toFixed(0)} | ${ratioOf(row).toFixed(2)} | ` +
        `${Math.max(service.otherCores, floor.otherCores).toFixed(2)} |`,
    );
  }
  console.log('');
  console.log(
    "Ratio: the service's CPU per call over the floor's (node:http reading the same rows with prepared " +
      "better-sqlite3 statements in raw mode and writing the same bytes). Floor p99: the floor's, a gauge of " +
      "what the machine's other load does to a p99 in this run. Other cores: the most that other processes " +
      'took during the two runs.',
  );
  const distant = measured.filter((row) => row.load.workload.list && !(ratioOf(row) <= GOALS.floorRatio));
  console.log(
    `Every list operation within ${GOALS.floorRatio}x its floor: ` +
      verdict(distant.map((row) => `${row.load.workload.operation.name} (${ratioOf(row).toFixed(2)})`)),
  );
  const slow = measured.filter(({ service }) => !(service.p99Micros / 1000 < GOALS.p99Millis));
  console.log(
    `p99 under ${GOALS.p99Millis} ms for every query operation with WORKERS=${options.workers}: ` +
      verdict(slow.map(({ load, service }) => `${load.workload.operation.name} (${millis(service.p99Micros)} ms)`)),
  );
  console.log(
    `Service peak memory (sum of Pss over its processes): ${memory.peak.toFixed(0)} MB ` +
      `(goal under ${GOALS.peakMegabytes} MB: ${memory.peak < GOALS.peakMegabytes ? 'met' : 'NOT met'}); ` +
      `sum of their VmHWM, shared pages counted in each: ${memory.residentPeaks.toFixed(0)} MB`,
  );
}

async function main(): Promise<void> {
  const options = parseOptions();
  const workloads = WORKLOADS.filter(
    (workload) => !options.only || workload.operation.name.toLowerCase().includes(options.only),
  );
  if (workloads.length === 0) throw new Error(`no operation matches --only ${options.only}`);
  if (options.build) buildService();
  checkBenchmarkTools();

  const group = new ProcessGroup();
  const workDirectory = mkdtempSync(join(tmpdir(), 'benchmark-scale-'));
  process.once('exit', () => group.killAllNow());
  try {
    const dataDirectory = join(workDirectory, 'data');
    const databaseFile = join(dataDirectory, SQLITE_FILE_NAME);
    const generationSeconds = generateSchool(dataDirectory, options);
    const database = new BetterSqlite3(databaseFile, { readonly: true });
    const requests: Requests[] = workloads.map((workload) => {
      const parameterSets = workload.parameterSets(database);
      return {
        workload,
        parameterSets,
        scenarios: parameterSets.map((parameters) => scenarioOf(workload, parameters)),
      };
    });
    database.close();

    const service = await startService(group, dataDirectory, options.workers);
    const memory = new MemorySampler(service.pid);
    console.log("Keeping the service's answer to every request ...");
    const loads: Load[] = [];
    for (const each of requests)
      loads.push({ ...each, captured: await captureResponses(service.port, each.scenarios) });
    const floor = await startFloorServer(
      group,
      workDirectory,
      databaseFile,
      loads.flatMap(({ workload, parameterSets, scenarios, captured }) =>
        parameterSets.map((parameters, index) => ({
          operation: workload.operation.name,
          values: parameters.map(([, value]) => value),
          request: scenarios[index].body,
          response: captured[index],
        })),
      ),
    );
    for (const load of loads) await checkAnswersAlike(floor.port, load.scenarios, load.captured, 'floor server');
    const floorServer: Server = { label: 'floor', ...floor };

    const measured = await measure(group, options, workDirectory, loads, [service, floorServer]);
    const peak = memory.stop();
    printReport(options, generationSeconds, measured, { peak, residentPeaks: residentPeaksMegabytes(service.pid) });
  } finally {
    await group.stopAll();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

runMain('scale benchmark', main);

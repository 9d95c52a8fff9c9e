/**
 * The fixed path of a call, stage by stage: what reading the request, the pipeline, the caller and
 * its scope, the store, the request record, the figures, the access log, the audit trail, writing
 * the answer and node's own HTTP cost per call, beside a bare node:http server answering the same
 * bytes, and writes the table into docs/benchmarks.md (between its path-budget markers).
 *
 *   npm run bench:path                       build, measure, print and write the table
 *   npm run bench:path -- --no-build --duration 3 --rounds 3 --no-write
 *
 * For each kind of service (the documented profile on an empty store; the typed profile on the
 * demo school) it starts the compiled service at LOG_LEVEL=info, its log to a file as in
 * production, and a bare server with the service's answers (scripts/benchmark/bare-server.js).
 * Per scenario: `--rounds` wrk runs on each, alternately, give the CPU per call of each (utime +
 * stime from /proc; medians). Then one more run on the service with V8's sampling profiler on
 * for just that run (scripts/benchmark/profile-window.js, preloaded): each sample is charged to
 * the nearest of the service's own frames on its stack (a socket write or a SQLite step to the
 * code that called it; a dependency such as saxes to the service code that called it), and that
 * frame's file names the stage; samples without any frame of the service are node's HTTP and
 * event work, the garbage collector, or native work with no JavaScript on the stack. The profiler
 * samples wall time: a sample inside a socket or file write counts the kernel's work and also the
 * time the thread waits for its core once the write has woken the client (wrk) on a busy machine,
 * so those samples are left out, and the kernel's part is measured instead (the process's system
 * time, from /proc). The shares are applied to the user CPU per call measured without the
 * profiler, and the kernel's row is its system CPU per call, so the rows add up to the whole.
 */
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchmarkServiceEnvironment, buildService, checkBenchmarkTools, ROOT, SERVICE_ENTRY } from './benchmark/build';
import { captureResponses, checkAnswersAlike, responsesFile } from './benchmark/capture';
import { wholeNumber } from './benchmark/options';
import { firstMatchingLine, freePort, ProcessGroup, waitForPort } from '../test/support/processes';
import { runMain } from './benchmark/run-main';
import {
  HELLO_WORLD,
  REAL_STUDENT,
  type Scenario,
  type ServiceKind,
  scenariosFor,
  VOID_LOOKUP,
} from './benchmark/scenarios';
import { type LoadResult, runWrk, writeWrkScript } from './benchmark/wrk';

const BARE_SERVER = join(ROOT, 'scripts', 'benchmark', 'bare-server.js');
const PROFILE_WINDOW = join(ROOT, 'scripts', 'benchmark', 'profile-window.js');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const BEGIN = '<!-- path-budget:begin (written by npm run bench:path) -->';
const END = '<!-- path-budget:end -->';

/** The scenarios of the table, with their goal as the service's CPU per call over the bare server's. */
const MEASURED: ReadonlyArray<{ scenario: Scenario; goal: number }> = [
  { scenario: scenariosFor(HELLO_WORLD)[0], goal: 1.6 },
  { scenario: scenariosFor(VOID_LOOKUP)[0], goal: 2.2 },
  { scenario: scenariosFor(REAL_STUDENT, 'typed')[0], goal: 3 },
];

const SERVICE_SETTINGS: Readonly<Record<ServiceKind, Readonly<Record<string, string>>>> = {
  documented: {},
  typed: { CONTRACT: 'typed', DEMO_DATA: 'on' },
};

/** Stages, in the order of a call; a file of the service belongs to the first whose pattern matches its path. */
const STAGES: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'reading the request',
    new RegExp(
      '/(soap/(\\w+-request-reader|envelope-reading|header-reader|parameter-decoder|element-tag)' +
        '|wire/(read-body|content-type|form-fields|xml-budget)|http/request-validation|wire/json-bounds)\\.js$',
    ),
  ],
  ['request record and id', /\/(telemetry\/(request-record|request-id)|server\/request-tracking)\.js$/],
  ['metrics', /\/(telemetry\/(request-figures|latency-counts|process-telemetry)|status\/service-figures)\.js$/],
  ['access log', /\/(telemetry\/access-log|lib\/log)\.js$/],
  ['caller and scope', /\/access\/\w[\w-]*\.js$/],
  ['audit trail', /\/audit\/\w[\w-]*\.js$/],
  ['store', /\/store\/[\w/-]+\.js$/],
  [
    'writing the answer (XML, JSON)',
    /\/(soap\/(envelope-writer|result-writer)|wire\/(typed-xml|typed-json|utf8-writer|xml-escape))\.js$/,
  ],
  // writeHead and end: node's HTTP writing, which the bare server pays as well (the socket write is the kernel's row).
  ['sending it (writeHead, end)', /\/wire\/send\.js$/],
  ['pipeline, binding and handler', /\/(pipeline|operations|soap|http|contract)\/[\w-]+\.js$/],
  ['routing (server)', /\/(server\/[\w-]+|service|main)\.js$/],
  ['other service code', /./],
];
const NODE_WORK = "node's HTTP, streams, events, promises";
const GC = 'garbage collector';
const NATIVE = 'native, no JavaScript on the stack';
const KERNEL = "the kernel: system calls (socket reads and writes, SQLite's locks, the journal's write)";
const ROWS = [...STAGES.map(([name]) => name), NODE_WORK, GC, NATIVE, KERNEL];
/**
 * Node's native socket and file writes: a sample in one is the kernel's work or a wait for the core
 * (see above), left out of the shares; the kernel's work is in the system time.
 */
const SYSTEM_CALL_LEAVES: ReadonlySet<string> = new Set([
  'writev',
  'writeBuffer',
  'writeUtf8String',
  'writeLatin1String',
  'writeAsciiString',
  'writeString',
]);

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Microseconds of profile time per stage. */
function stagesOf(profile: CpuProfile, serviceRoot: string): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOfNode = new Map<number, string | undefined>();
  const stageOf = (id: number): string | undefined => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    const leaf = byId.get(id) as ProfileNode;
    let stage: string | undefined;
    if (SYSTEM_CALL_LEAVES.has(leaf.callFrame.functionName)) {
      stageOfNode.set(id, undefined);
      return undefined;
    }
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = (byId.get(at) as ProfileNode).callFrame.url;
      if (url.includes(serviceRoot) && !url.includes('/node_modules/')) {
        stage = STAGES.find(([, pattern]) => pattern.test(url))?.[0];
        break;
      }
    }
    if (stage === undefined) {
      const name = leaf.callFrame.functionName;
      stage =
        name === '(idle)' ? undefined : name === '(garbage collector)' ? GC : name === '(program)' ? NATIVE : NODE_WORK;
    }
    stageOfNode.set(id, stage);
    return stage;
  };
  const micros = new Map<string, number>();
  for (let index = 0; index < profile.samples.length; index += 1) {
    const stage = stageOf(profile.samples[index]);
    const took = profile.timeDeltas[index + 1] ?? 0;
    if (stage !== undefined) micros.set(stage, (micros.get(stage) ?? 0) + took);
  }
  return micros;
}

interface Figures {
  readonly scenario: Scenario;
  readonly goal: number;
  readonly serviceCpu: number;
  /** The kernel's part of serviceCpu (system time). */
  readonly serviceSystem: number;
  readonly bareCpu: number;
  readonly bareSystem: number;
  /** µs per call of each stage, its share of the profile applied to serviceCpu. */
  readonly stages: Map<string, number>;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function measureKind(
  group: ProcessGroup,
  kind: ServiceKind,
  measured: typeof MEASURED,
  folder: string,
  settings: { durationSeconds: number; rounds: number; warmupSeconds: number },
): Promise<Figures[]> {
  const directory = join(folder, kind);
  mkdirSync(directory);
  const port = await freePort();
  const service = group.spawn(process.execPath, ['--require', PROFILE_WINDOW, SERVICE_ENTRY], {
    cwd: ROOT,
    env: {
      ...benchmarkServiceEnvironment(port, join(directory, 'data'), { ...SERVICE_SETTINGS[kind], LOG_LEVEL: 'info' }),
      PROFILE_FILE: join(directory, 'profile'),
    },
    stdio: ['ignore', 'inherit', openSync(join(directory, 'service.log'), 'w')],
  });
  await waitForPort(port, service, 60_000, `the ${kind} service`);
  const scenarios = measured.map((entry) => entry.scenario);
  const captured = await captureResponses(port, scenarios);
  const responses = join(directory, 'responses.json');
  writeFileSync(responses, responsesFile(scenarios, captured));
  const bare = group.spawn(process.execPath, [BARE_SERVER, responses], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const barePort = Number((await firstMatchingLine(bare, /^listening (\d+)$/m, 10_000, 'the bare server'))[1]);
  await checkAnswersAlike(barePort, scenarios, captured, 'bare server');

  const figures: Figures[] = [];
  for (const [index, { scenario, goal }] of measured.entries()) {
    const script = writeWrkScript(directory, index, scenario);
    const load = { connections: 4, threads: 1, durationSeconds: settings.durationSeconds };
    const run = (targetPort: number, pid: number, durationSeconds = load.durationSeconds): Promise<LoadResult> =>
      runWrk(group, script, `http://127.0.0.1:${targetPort}${scenario.path}`, pid, { ...load, durationSeconds });
    const targets = [
      { port, pid: service.pid as number, runs: [] as LoadResult[] },
      { port: barePort, pid: bare.pid as number, runs: [] as LoadResult[] },
    ];
    for (const target of targets) await run(target.port, target.pid, settings.warmupSeconds);
    for (let round = 0; round < settings.rounds; round += 1) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        target.runs.push(await run(target.port, target.pid));
      }
    }
    const serviceCpu = median(targets[0].runs.map((result) => result.cpuMicrosPerRequest));
    const bareCpu = median(targets[1].runs.map((result) => result.cpuMicrosPerRequest));
    const serviceSystem = median(targets[0].runs.map((result) => result.systemCpuMicrosPerRequest));
    const bareSystem = median(targets[1].runs.map((result) => result.systemCpuMicrosPerRequest));

    // One more run, profiled; its shares are applied to the CPU per call measured without the profiler.
    const profileFile = join(directory, 'profile');
    rmSync(profileFile, { force: true });
    rmSync(`${profileFile}.started`, { force: true });
    process.kill(service.pid as number, 'SIGUSR2');
    await waitForFile(`${profileFile}.started`, 10_000);
    const profiled = await run(port, service.pid as number);
    process.kill(service.pid as number, 'SIGUSR2');
    await waitForFile(profileFile, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the file written whole
    const micros = stagesOf(JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile, join(ROOT, 'dist', 'src'));
    const profiledTotal = [...micros.values()].reduce((sum, value) => sum + value, 0);
    const userCpu = serviceCpu - serviceSystem;
    const stages = new Map(ROWS.map((name) => [name, ((micros.get(name) ?? 0) / profiledTotal) * userCpu]));
    stages.set(KERNEL, serviceSystem);
    figures.push({ scenario, goal, serviceCpu, serviceSystem, bareCpu, bareSystem, stages });
    console.log(
      `${scenario.name}: ${serviceCpu.toFixed(1)} us a call, bare ${bareCpu.toFixed(1)} us ` +
        `(profiled run: ${profiled.cpuMicrosPerRequest.toFixed(1)} us a call)`,
    );
  }
  return figures;
}

function table(all: readonly Figures[]): string {
  const us = (value: number) => `${value.toFixed(1)} µs`;
  const row = (name: string, cell: (figures: Figures) => string) =>
    `| ${name} | ${all.map((figures) => cell(figures)).join(' | ')} |`;
  const header = row('Stage (µs of CPU per call)', (figures) => figures.scenario.name);
  const rule = `|---|${all.map(() => '---:').join('|')}|`;
  const rows = ROWS.map((name) => row(name, (figures) => us(figures.stages.get(name) ?? 0)));
  const total = row('**service, measured without the profiler**', (figures) => `**${us(figures.serviceCpu)}**`);
  const bare = row(
    'bare node:http server, same bytes (of which the kernel)',
    (figures) => `${us(figures.bareCpu)} (${us(figures.bareSystem)})`,
  );
  const beyond = row('beyond the bare server', (figures) => us(figures.serviceCpu - figures.bareCpu));
  const ratio = row('service / bare (goal)', (figures) => {
    const value = figures.serviceCpu / figures.bareCpu;
    return `${value.toFixed(2)}x (${figures.goal}x${value <= figures.goal ? ', met' : ', not met'})`;
  });
  return [header, rule, ...rows, total, bare, beyond, ratio].join('\n');
}

function writeIntoDoc(text: string): void {
  const doc = readFileSync(DOC, 'utf8');
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/benchmarks.md has no ${BEGIN} ... ${END} markers`);
  writeFileSync(DOC, `${doc.slice(0, begin + BEGIN.length)}\n${text}\n${doc.slice(end)}`);
}

runMain('bench:path', async () => {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '2' },
      'no-build': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const settings = {
    durationSeconds: wholeNumber('--duration', values.duration, 1, 120),
    rounds: wholeNumber('--rounds', values.rounds, 1, 20),
    warmupSeconds: wholeNumber('--warmup', values.warmup, 1, 60),
  };
  if (!values['no-build']) buildService();
  checkBenchmarkTools();
  const group = new ProcessGroup();
  const folder = mkdtempSync(join(tmpdir(), 'benchmark-path-'));
  process.once('exit', () => group.killAllNow());
  try {
    const figures: Figures[] = [];
    for (const kind of ['documented', 'typed'] as const) {
      const ofKind = MEASURED.filter((entry) => entry.scenario.service === kind);
      figures.push(...(await measureKind(group, kind, ofKind, folder, settings)));
    }
    const load = (await import('node:os')).loadavg()[0].toFixed(1);
    const text =
      `${table(figures)}\n\n` +
      `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ` +
      `${cpus().length} cores (load average ${load} at the end), wrk -t1 -c4, ${settings.durationSeconds} s runs, ` +
      `medians of ${settings.rounds} alternated runs; the service at LOG_LEVEL=info, its log to a file.`;
    console.log(`\n${text}`);
    if (!values['no-write']) {
      writeIntoDoc(text);
      console.log('\nWritten into docs/benchmarks.md.');
    }
  } finally {
    await group.stopAll();
    rmSync(folder, { recursive: true, force: true });
  }
});

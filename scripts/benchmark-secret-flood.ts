/**
 * A flood of wrong secrets from many addresses, with correct callers beside it: the CPU the
 * service spends, and how long the correct callers wait.
 *
 *   npm run bench:secrets [-- --no-build] [-- --seconds 20 --addresses 200]
 *
 * The service runs compiled, with loopback not local (every caller must present a secret). The
 * flood sends HTTP Basic with a wrong secret, each request a name of its own (half a caller that
 * exists, half names no caller holds) so that the per-name throttle never stops it, from
 * 127.0.0.10 onwards, one request in flight per address. Beside it, sampled in turn:
 *
 * - cached: a caller whose secret the service verified before (a lookup);
 * - returning: a caller let in from its address before, its secret dropped from memory by a change
 *   of the callers just before the call (so checked again, in the gate's priority lane);
 * - newcomer: a caller never seen, from an address never seen (its secret shows its hash's hint,
 *   so it is checked in the priority lane all the same).
 *
 * It runs twice: with the default limits (SECRET_CHECKS_IN_FLIGHT=1, SECRET_CHECK_CPU_PERCENT=25),
 * and with the gate opened wide (4 in flight, 400 %), which is what unbounded checks cost. CPU is
 * the service process's (/proc), all threads and off the main thread, where scrypt runs (libuv's
 * pool; V8's helper threads are there too, so it is an upper bound of the checks' share).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addCaller, updateCaller } from '../src/access/caller-admin';
import { keyFor, payloadSealer } from '../src/lib/payload-sealer';
import { openStore, type Store } from '../src/store/open-store';
import { benchmarkServiceEnvironment, buildService, ROOT, SERVICE_ENTRY } from './benchmark/build';
import {
  CLOCK_TICKS_PER_SECOND,
  cpuSeconds,
  freePort,
  ProcessGroup,
  procFile,
  waitForPort,
} from '../test/support/processes';
import { runMain } from './benchmark/run-main';

const SERVICE_KEY = '6b'.repeat(32);
const PATH = '/GetNoteType.asmx/GetStudentsNoteType';
const REFRESH_MS = 200;
const NEWCOMERS = 12;

interface Variant {
  readonly label: string;
  readonly settings: Readonly<Record<string, string>>;
}

const VARIANTS: readonly Variant[] = [
  { label: 'default limits (1 in flight, 25 %)', settings: {} },
  {
    label: 'gate opened wide (4 in flight, 400 %)',
    settings: { SECRET_CHECKS_IN_FLIGHT: '4', SECRET_CHECK_CPU_PERCENT: '400' },
  },
];

function basic(name: string, secret: string): string {
  return `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;
}

/** One GET with credentials from `from`; resolves with the status and the milliseconds it took. */
function timedGet(agent: Agent, port: number, from: string, authorization: string): Promise<[number, number]> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: PATH, agent, localAddress: from, headers: { Authorization: authorization } },
      (response) => {
        response.resume();
        response.on('end', () => resolve([response.statusCode ?? 0, performance.now() - started]));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** CPU seconds of the process's threads other than its main one. */
function offMainCpuSeconds(pid: number): number {
  let ticks = 0;
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const task of tasks) {
    if (Number(task) === pid) continue;
    const stat = procFile(pid, `task/${task}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

interface Callers {
  readonly secrets: Record<string, string>;
}

async function prepareStore(dataDirectory: string): Promise<Callers> {
  const store = await openStore({ databaseUrl: undefined, dataDirectory });
  try {
    const sealer = payloadSealer(keyFor(Buffer.from(SERVICE_KEY, 'hex'), 'caller-digest-secrets'));
    const common = {
      networks: [],
      secret: true,
      wsDigest: false,
      operations: ['all'],
      scope: 'school',
      expires: undefined,
    };
    const secrets: Record<string, string> = {};
    const names = ['cached', 'returning', ...Array.from({ length: NEWCOMERS }, (_, index) => `newcomer-${index}`)];
    for (const name of names) {
      secrets[name] = (await addCaller(store, { ...common, name }, sealer, new Date())).secret as string;
    }
    await addCaller(store, { ...common, name: 'tick', secret: false, networks: ['192.0.2.0/24'] }, sealer, new Date());
    return { secrets };
  } finally {
    await store.close();
  }
}

const percentile = (values: readonly number[], share: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};

interface Figures {
  /** A correct secret's first call before the flood: one check, nothing else waiting. */
  readonly idleCheckMs: number;
  readonly floodPerSecond: number;
  readonly cores: number;
  readonly offMainCores: number;
  readonly cached: number[];
  readonly returning: number[];
  readonly newcomer: number[];
  readonly refused: { cached: number; returning: number; newcomer: number };
}

async function measure(variant: Variant, seconds: number, addresses: number, group: ProcessGroup): Promise<Figures> {
  const work = mkdtempSync(join(tmpdir(), 'benchmark-secrets-'));
  const { secrets } = await prepareStore(work);
  const port = await freePort();
  const child = group.spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: benchmarkServiceEnvironment(port, work, {
      OUTBOX_KEY: SERVICE_KEY,
      LOCAL_NETWORKS: '192.0.2.1/32',
      ACCESS_REFRESH_MS: String(REFRESH_MS),
      // Every refusal is a warning: thousands a second would measure the log, not the checks.
      LOG_LEVEL: 'error',
      ...variant.settings,
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForPort(port, child, 15_000, 'the service');
  const pid = child.pid as number;
  const store: Store = await openStore({ databaseUrl: undefined, dataDirectory: work });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Before the flood, the cached and returning callers are let in once from their addresses:
    // each call a check of its secret, which is what a check takes without a flood.
    const idle: number[] = [];
    for (const [name, from] of [
      ['cached', '127.0.0.2'],
      ['returning', '127.0.0.3'],
    ]) {
      const [status, took] = await timedGet(agent, port, from, basic(name, secrets[name]));
      if (status !== 200) throw new Error(`${name}: ${status} before the flood`);
      idle.push(took);
    }
    let flooding = true;
    let floodCalls = 0;
    const floodAgents = Array.from({ length: addresses }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    const flood = floodAgents.map(async (floodAgent, index) => {
      const from = `127.0.${2 + Math.floor(index / 250)}.${(index % 250) + 2}`;
      while (flooding) {
        const name = floodCalls % 2 === 0 ? 'cached' : `guess-${floodCalls}`;
        await timedGet(floodAgent, port, from, basic(name, `${name}.wrong-${floodCalls}`)).catch(() => undefined);
        floodCalls += 1;
      }
    });
    // A moment for the flood to fill the gate's lanes before anything is measured.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const cpuBefore = cpuSeconds(pid);
    const offMainBefore = offMainCpuSeconds(pid);
    const callsBefore = floodCalls;
    const started = performance.now();
    const figures = {
      cached: [] as number[],
      returning: [] as number[],
      newcomer: [] as number[],
      refused: { cached: 0, returning: 0, newcomer: 0 },
    };
    const note = (kind: 'cached' | 'returning' | 'newcomer', [status, ms]: [number, number]) => {
      if (status === 200) figures[kind].push(ms);
      else figures.refused[kind] += 1;
    };
    let round = 0;
    while (performance.now() - started < seconds * 1000) {
      for (let call = 0; call < 20; call += 1) {
        note('cached', await timedGet(agent, port, '127.0.0.2', basic('cached', secrets.cached)));
      }
      // A change of the callers drops every verified secret; the returning caller is checked again.
      await updateCaller(store, 'tick', { operations: [round % 2 === 0 ? 'queries' : 'all'] }, new Date());
      await new Promise((resolve) => setTimeout(resolve, 2 * REFRESH_MS));
      note('returning', await timedGet(agent, port, '127.0.0.3', basic('returning', secrets.returning)));
      if (round < NEWCOMERS) {
        const name = `newcomer-${round}`;
        note('newcomer', await timedGet(new Agent(), port, `127.0.1.${round + 2}`, basic(name, secrets[name])));
      }
      round += 1;
    }
    const elapsed = (performance.now() - started) / 1000;
    const result: Figures = {
      idleCheckMs: Math.min(...idle),
      floodPerSecond: (floodCalls - callsBefore) / elapsed,
      cores: (cpuSeconds(pid) - cpuBefore) / elapsed,
      offMainCores: (offMainCpuSeconds(pid) - offMainBefore) / elapsed,
      ...figures,
    };
    flooding = false;
    await Promise.all(flood);
    for (const floodAgent of floodAgents) floodAgent.destroy();
    return result;
  } finally {
    agent.destroy();
    await store.close();
    await group.stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(1)} ms`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'no-build': { type: 'boolean', default: false },
      seconds: { type: 'string', default: '20' },
      addresses: { type: 'string', default: '200' },
    },
  });
  if (!values['no-build']) buildService();
  const seconds = Number(values.seconds);
  const addresses = Number(values.addresses);
  if (!(seconds >= 5 && seconds <= 300) || !(addresses >= 1 && addresses <= 1000)) {
    throw new Error('--seconds is 5 to 300 and --addresses 1 to 1000');
  }
  const group = new ProcessGroup();
  process.on('exit', () => group.killAllNow());
  const results: Array<[Variant, Figures]> = [];
  for (const variant of VARIANTS) {
    console.log(`Flooding, ${variant.label} ...`);
    results.push([variant, await measure(variant, seconds, addresses, group)]);
  }
  console.log(`\n${new Date().toString()} | node ${process.version} | ${cpus().length} cores (${cpus()[0]?.model})`);
  console.log(`${addresses} flooding addresses, ${seconds} s measured per run; CPU in cores of the service process\n`);
  for (const [variant, figures] of results) {
    console.log(`${variant.label}; a call checking its secret without a flood: ${ms(figures.idleCheckMs)}`);
    console.log(
      `  flood: ${Math.round(figures.floodPerSecond).toLocaleString('en')} wrong secrets/s; service CPU ` +
        `${figures.cores.toFixed(2)} cores, off the main thread (the checks) ${figures.offMainCores.toFixed(2)}`,
    );
    for (const kind of ['cached', 'returning', 'newcomer'] as const) {
      const latencies = figures[kind];
      console.log(
        `  ${kind.padEnd(10)} ${String(latencies.length).padStart(4)} let in, ${figures.refused[kind]} refused; ` +
          `p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}, ` +
          `max ${ms(percentile(latencies, 1))}`,
      );
    }
  }
}

runMain('bench:secrets', main);

/**
 * Several nodes behind haproxy on one PostgreSQL, all on this machine: throughput and CPU per call
 * of typed GetStudentInfoById and of a list operation (GetAllAuditsByClassId: every absence and
 * lateness of a class) over SOAP 1.1 through the balancer, with 1, 2 and 3 nodes, and where the
 * CPU went (the nodes, haproxy, PostgreSQL, wrk), so that the limit can be read off. A benchmark,
 * not a test: it prints figures and checks only that every call succeeded.
 *
 *   npm run bench:balancer                                      1, 2 and 3 nodes, 10 s per operation
 *   npm run bench:balancer -- --nodes 1,3 --duration 3 --warmup 1 --no-build
 *
 * It builds the service (unless --no-build), starts a throwaway PostgreSQL cluster (as the tests
 * do: initdb in a temporary folder, a free loopback port, fsync off), loads the demo school with
 * the demo-data command, then starts nodes of the compiled service one by one (WORKERS=1 each,
 * CONTRACT=typed, LOG_LEVEL=info with the access log to a file, as in production) and, for each
 * count of nodes, haproxy from deploy/haproxy.cfg in front of them. wrk loads each operation for
 * a warm-up, then for the measured run, every request taking the next identifier in turn. CPU per
 * call is user + system time from /proc/<pid>/stat, read before and after the run, of each node,
 * of haproxy (master and worker), of PostgreSQL (the postmaster and its sessions) and of wrk,
 * divided by the requests wrk completed; cores busy is the same time divided by the run's length.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/open-store';
import { type Balancer, startBalancer } from '../test/support/balancer';
import { createDatabase, startTestPostgres, type TestPostgres } from '../test/support/postgres';
import {
  benchmarkServiceEnvironment,
  buildService,
  CLI_ENTRY,
  checkBenchmarkTools,
  ROOT,
  SERVICE_ENTRY,
} from './benchmark/build';
import { wholeNumber } from './benchmark/options';
import { runMain } from './benchmark/run-main';
import { readSchoolLoadOptions, type SchoolLoadOptions, schoolLoadFlags } from './benchmark/school-load-options';
import { freePort, ProcessGroup, waitForPort } from '../test/support/processes';
import { scenariosFor, type Operation } from './benchmark/scenarios';
import { type LoadResult, runWrk, writeWrkScript } from './benchmark/wrk';

/** How many different identifiers each operation's requests rotate over, at most. */
const SAMPLE = 400;
/** A process this busy (in cores) is taken to be the limit: one Node.js process uses one core. */
const SATURATED = 0.85;

interface Options extends SchoolLoadOptions {
  readonly nodeCounts: number[];
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      ...schoolLoadFlags({ students: 500, seed: 1, duration: 10, warmup: 3, connections: 16 }),
      nodes: { type: 'string', default: '1,2,3' },
    },
  });
  return {
    ...readSchoolLoadOptions(values),
    nodeCounts: values.nodes
      .split(',')
      .map((count) => wholeNumber('--nodes', count.trim(), 1, 8))
      .sort((a, b) => a - b),
  };
}

interface Workload {
  readonly operation: Omit<Operation, 'parameters'>;
  readonly parameter: string;
  readonly ids: readonly number[];
}

/** The identifiers the requests rotate over: students, and the classes, of the loaded school. */
async function workloads(databaseUrl: string, dataDirectory: string): Promise<Workload[]> {
  const store = await openStore({ databaseUrl, dataDirectory });
  try {
    const students = await store.db.selectFrom('students').select('id').orderBy('id').limit(SAMPLE).execute();
    const classes = await store.db.selectFrom('classes').select('id').orderBy('id').limit(SAMPLE).execute();
    return [
      {
        operation: {
          label: 'GetStudentInfoById',
          endpoint: '/GetStudentsInformation.asmx',
          name: 'GetStudentInfoById',
        },
        parameter: 'StudentId',
        ids: students.map((row) => row.id),
      },
      {
        operation: {
          label: 'GetAllAuditsByClassId',
          endpoint: '/GetStudentsAudit.asmx',
          name: 'GetAllAuditsByClassId',
        },
        parameter: 'classId',
        ids: classes.map((row) => row.id),
      },
    ];
  } finally {
    await store.close();
  }
}

function loadDemoSchool(databaseUrl: string, options: Options): void {
  console.log(`Loading the demo school (${options.students} students, seed ${options.seed}) into PostgreSQL ...`);
  const result = spawnSync(
    process.execPath,
    [CLI_ENTRY, 'demo-data', '--students', String(options.students), '--seed', String(options.seed)],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`the demo-data command failed (exit ${result.status})`);
}

interface RunningNode {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
}

/** A node as deploy/ runs one: its own process and port, the shared store, key and trust in the balancer. */
async function startNode(
  group: ProcessGroup,
  workDirectory: string,
  index: number,
  settings: Record<string, string>,
): Promise<RunningNode> {
  const name = `node${index}`;
  const port = await freePort();
  const logFile = join(workDirectory, `${name}.log`);
  const child = group.spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: benchmarkServiceEnvironment(port, join(workDirectory, name), settings),
    // The access line of every request goes to a file, as journald takes it in production.
    stdio: ['ignore', 'inherit', openSync(logFile, 'w')],
  });
  try {
    await waitForPort(port, child, 60_000, name);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${readFileSync(logFile, 'utf8')}`);
  }
  return { name, port, pid: child.pid as number };
}

const cores = cpus().length;
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** What the figures say the limit was: the process that was saturated, or the machine's cores all taken. */
function limitOf(nodeCores: readonly number[], haproxyCores: number, postgresCores: number, idleCores: number): string {
  const busiestNode = Math.max(...nodeCores);
  if (busiestNode >= SATURATED) return `node CPU (busiest node ${fixed(busiestNode, 2)} of its 1 core)`;
  if (haproxyCores >= SATURATED) return 'haproxy CPU (its one worker thread)';
  if (idleCores < 0.15 * cores) {
    const shares = {
      nodes: nodeCores.reduce((sum, value) => sum + value, 0),
      haproxy: haproxyCores,
      PostgreSQL: postgresCores,
    };
    const [largest] = Object.entries(shares).sort(([, a], [, b]) => b - a);
    return `the machine's ${cores} cores (largest share: ${largest[0]}, ${fixed(largest[1], 2)} cores)`;
  }
  return `no CPU saturated (${fixed(idleCores, 2)} cores idle): more connections may go further`;
}

function row(nodeCount: number, label: string, result: LoadResult, nodes: readonly RunningNode[]): string {
  const perCall = result.groupCpuMicrosPerRequest;
  const coresOf = (micros: number) => (micros * result.requestsPerSecond) / 1e6;
  const nodeMicros = nodes.map((node) => perCall[node.name]);
  const nodesMicros = nodeMicros.reduce((sum, value) => sum + value, 0);
  const nodeCores = nodeMicros.map(coresOf);
  const haproxyCores = coresOf(result.cpuMicrosPerRequest);
  const postgresCores = coresOf(perCall.postgres);
  const wrkCores = coresOf(result.clientCpuMicrosPerRequest);
  const busy = nodeCores.reduce((sum, value) => sum + value, 0) + haproxyCores + postgresCores + wrkCores;
  const idle = Math.max(0, cores - busy - result.otherCores);
  return (
    `| ${nodeCount} | ${label} | ${Math.round(result.requestsPerSecond).toLocaleString('en-US')} | ` +
    `${fixed(result.p50Micros / 1000, 2)} | ${fixed(result.p99Micros / 1000, 2)} | ` +
    `${fixed(nodesMicros, 0)} | ${fixed(result.cpuMicrosPerRequest, 0)} | ${fixed(perCall.postgres, 0)} | ` +
    `${fixed(result.clientCpuMicrosPerRequest, 0)} | ${nodeCores.map((value) => fixed(value, 2)).join(' + ')} | ` +
    `${fixed(haproxyCores, 2)} | ${fixed(postgresCores, 2)} | ${fixed(wrkCores, 2)} | ` +
    `${fixed(result.otherCores, 2)} | ${limitOf(nodeCores, haproxyCores, postgresCores, idle)} |`
  );
}

function versionOf(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return (result.stdout || result.stderr || '').split('\n')[0].trim();
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.build) buildService();
  checkBenchmarkTools();
  if (spawnSync('haproxy', ['-v']).error) throw new Error('haproxy is not installed (apt-get install haproxy)');

  const group = new ProcessGroup();
  const workDirectory = mkdtempSync(join(tmpdir(), 'benchmark-balancer-'));
  process.once('exit', () => group.killAllNow());
  let postgres: TestPostgres | undefined;
  let balancer: Balancer | undefined;
  try {
    postgres = await startTestPostgres();
    const databaseUrl = createDatabase(postgres.url, 'school_benchmark');
    loadDemoSchool(databaseUrl, options);
    const loads = await workloads(databaseUrl, workDirectory);
    const postgresPid = postgres.serverPid();
    const nodeSettings = {
      DATABASE_URL: databaseUrl,
      CONTRACT: 'typed',
      WORKERS: '1',
      LOG_LEVEL: 'info',
      OUTBOX_KEY: randomBytes(32).toString('hex'),
      // The balancer connects from 127.0.0.1 and forwards wrk's address, also 127.0.0.1: local, let in.
      LOCAL_NETWORKS: '127.0.0.1/32',
      TRUSTED_PROXIES: '127.0.0.1/32',
    };

    const nodes: RunningNode[] = [];
    const rows: string[] = [];
    for (const nodeCount of options.nodeCounts) {
      while (nodes.length < nodeCount)
        nodes.push(await startNode(group, workDirectory, nodes.length + 1, nodeSettings));
      const serving = nodes.slice(0, nodeCount);
      console.log(`${nodeCount} node(s) behind haproxy ...`);
      balancer = await startBalancer(serving.map((node) => ({ name: node.name, address: `127.0.0.1:${node.port}` })));
      const balancerPid = balancer.child.pid as number;
      await balancer.waitForNodes((states) => states.every((state) => state.status === 'UP'));
      const measured = {
        ...Object.fromEntries(serving.map((node) => [node.name, [node.pid]])),
        postgres: [postgresPid],
      };
      for (const [index, { operation, parameter, ids }] of loads.entries()) {
        const [scenario] = scenariosFor({ ...operation, parameters: [] });
        const bodies = ids.map((id) => scenariosFor({ ...operation, parameters: [[parameter, String(id)]] })[0].body);
        const script = writeWrkScript(workDirectory, index, scenario, bodies);
        const url = `${balancer.url}${scenario.path}`;
        const settings = { connections: options.connections, threads: 1 };
        await runWrk(group, script, url, balancerPid, { ...settings, durationSeconds: options.warmupSeconds });
        const result = await runWrk(
          group,
          script,
          url,
          balancerPid,
          { ...settings, durationSeconds: options.durationSeconds },
          measured,
        );
        if (result.errors > 0) throw new Error(`${operation.name}: ${result.errors} errors or non-2xx responses`);
        rows.push(row(nodeCount, operation.label, result, serving));
      }
      await balancer.stop();
      balancer = undefined;
    }

    console.log('');
    console.log(
      `${new Date().toISOString()} | ${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GiB | Node ${process.version} | ${versionOf('haproxy', ['-v'])} | ` +
        `${versionOf('psql', ['--version'])}`,
    );
    console.log(
      `School: demo, ${options.students} students, seed ${options.seed}, on PostgreSQL (fsync off). ` +
        'Nodes: WORKERS=1 each, CONTRACT=typed, LOG_LEVEL=info (access log to a file). ' +
        `Load: wrk, 1 thread, ${options.connections} connections to haproxy, ${options.durationSeconds} s per ` +
        `operation after ${options.warmupSeconds} s of warm-up, SOAP 1.1.`,
    );
    console.log('');
    console.log(
      '| Nodes | Operation | req/s | p50 ms | p99 ms | CPU/call µs: nodes | haproxy | PostgreSQL | wrk | ' +
        'Cores busy: each node | haproxy | PostgreSQL | wrk | other | Limit |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const line of rows) console.log(line);
  } finally {
    await balancer?.stop();
    await group.stopAll();
    postgres?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

runMain('balancer benchmark', main);

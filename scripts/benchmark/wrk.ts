import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLOCK_TICKS_PER_SECOND,
  cpuSeconds,
  cpuTimes,
  machineBusySeconds,
  waitForExit,
  type ProcessGroup,
} from '../../test/support/processes';
import type { Scenario } from './scenarios';

/**
 * Drives load with wrk. wrk rather than autocannon: on a 2-core machine the load tool shares the
 * CPU with the server, and wrk (C, epoll) spends a small fraction of what autocannon (a Node
 * event loop parsing every response in JavaScript) spends per request, so it takes far less away
 * from the server under test and tops out well above it. One wrk thread keeps it on one core.
 */

export interface LoadSettings {
  readonly connections: number;
  readonly threads: number;
  readonly durationSeconds: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
  /** Socket errors, timeouts and responses that were not 2xx/3xx: any of them spoils a run. */
  readonly errors: number;
  /** Server CPU time (user + system) per completed request, from /proc before and after. */
  readonly cpuMicrosPerRequest: number;
  /** The part of it the kernel spent in the server's system calls (stime): socket reads and writes, file locks. */
  readonly systemCpuMicrosPerRequest: number;
  /** wrk's own CPU time per completed request. */
  readonly clientCpuMicrosPerRequest: number;
  /** CPU time per completed request of each further group of processes runWrk was asked to measure. */
  readonly groupCpuMicrosPerRequest: Readonly<Record<string, number>>;
  /**
   * Cores that neither the server, the measured groups nor wrk used during the run: other
   * processes, the kernel's own work, a hypervisor's steal. Anything but a few hundredths means
   * the run was disturbed.
   */
  readonly otherCores: number;
  /** How long wrk ran, in seconds. */
  readonly seconds: number;
}

const RESULT_MARKER = 'BENCHMARK-RESULT ';
const CLIENT_CPU_MARKER = 'BENCHMARK-CLIENT-CPU ';

/**
 * wrk run by a shell that then prints the CPU time of the children it waited for (fields 16 and
 * 17 of its own /proc/<pid>/stat, cutime and cstime): wrk's CPU time, which nothing else reports.
 */
const WRK_WRAPPER = [
  'wrk "$@"',
  'status=$?',
  'set -- $(cat /proc/$$/stat)',
  `echo "${CLIENT_CPU_MARKER}\${16} \${17}"`,
  'exit $status',
].join('; ');

/** A Lua string literal: printable ASCII as is, every other byte as a three-digit decimal escape. */
function luaString(text: string): string {
  let literal = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    literal +=
      byte >= 0x20 && byte < 0x7f && char !== '"' && char !== '\\' ? char : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${literal}"`;
}

/**
 * Writes the wrk script for a scenario: its request, and a done() that prints the figures as JSON.
 * With several bodies, each request takes the next one in turn, so that a benchmark reading data
 * spreads over many rows instead of timing one cached row.
 */
export function writeWrkScript(
  directory: string,
  index: number,
  scenario: Scenario,
  bodies: readonly string[] = [scenario.body],
): string {
  const lines = [`wrk.method = ${luaString(scenario.method)}`];
  for (const [name, value] of Object.entries(scenario.headers))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  if (bodies.length === 1 && bodies[0]) lines.push(`wrk.body = ${luaString(bodies[0])}`);
  if (bodies.length > 1) {
    lines.push('local bodies = {', ...bodies.map((body) => `  ${luaString(body)},`), '}', 'local turn = 0');
    lines.push(
      'request = function()',
      '  turn = turn % #bodies + 1',
      '  return wrk.format(nil, nil, nil, bodies[turn])',
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('${RESULT_MARKER}{"requests":%d,"durationMicros":%d,` +
      '"p50Micros":%d,"p99Micros":%d,"errors":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), ' +
      'e.connect + e.read + e.write + e.status + e.timeout))',
    'end',
  );
  const file = join(directory, `scenario-${index}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * One wrk run against a server process, with that process's CPU time read around it, and that of
 * each group of processes in `measured` (a balancer's nodes, its database: each pid with its descendants).
 */
export async function runWrk(
  group: ProcessGroup,
  script: string,
  url: string,
  serverPid: number,
  settings: LoadSettings,
  measured: Readonly<Record<string, readonly number[]>> = {},
): Promise<LoadResult> {
  const args = [
    '-t',
    String(settings.threads),
    '-c',
    String(settings.connections),
    '-d',
    `${settings.durationSeconds}s`,
    '-s',
    script,
    url,
  ];
  const groupCpu = () =>
    Object.fromEntries(
      Object.entries(measured).map(([name, pids]) => [name, pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)]),
    );
  const groupsBefore = groupCpu();
  const cpuBefore = cpuTimes(serverPid);
  const busyBefore = machineBusySeconds();
  const wrk = group.spawn('sh', ['-c', WRK_WRAPPER, 'wrk', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  wrk.stdout?.setEncoding('utf8');
  wrk.stdout?.on('data', (chunk: string) => (output += chunk));
  const code = await waitForExit(wrk, (settings.durationSeconds + 15) * 1000, 'wrk');
  const cpuAfter = cpuTimes(serverPid);
  const serverSystemCpu = cpuAfter.system - cpuBefore.system;
  const serverCpu = cpuAfter.user - cpuBefore.user + serverSystemCpu;
  const busy = machineBusySeconds() - busyBefore;
  const groupsAfter = groupCpu();
  const lines = output.split('\n');
  const result = lines.find((line) => line.startsWith(RESULT_MARKER));
  const clientCpu = lines.find((line) => line.startsWith(CLIENT_CPU_MARKER));
  if (code !== 0 || !result || !clientCpu) throw new Error(`wrk failed (exit ${code}):\n${output}`);
  const figures = JSON.parse(result.slice(RESULT_MARKER.length)) as {
    requests: number;
    durationMicros: number;
    p50Micros: number;
    p99Micros: number;
    errors: number;
  };
  const [childUser, childSystem] = clientCpu.slice(CLIENT_CPU_MARKER.length).split(' ').map(Number);
  const wrkCpu = (childUser + childSystem) / CLOCK_TICKS_PER_SECOND;
  const seconds = figures.durationMicros / 1e6;
  const perRequest = (cpu: number) => (figures.requests === 0 ? NaN : (cpu * 1e6) / figures.requests);
  const groupsUsed = Object.keys(measured).map((name) => [name, groupsAfter[name] - groupsBefore[name]] as const);
  const groupsTotal = groupsUsed.reduce((sum, [, cpu]) => sum + cpu, 0);
  return {
    requests: figures.requests,
    requestsPerSecond: figures.requests / seconds,
    p50Micros: figures.p50Micros,
    p99Micros: figures.p99Micros,
    errors: figures.errors,
    cpuMicrosPerRequest: perRequest(serverCpu),
    systemCpuMicrosPerRequest: perRequest(serverSystemCpu),
    clientCpuMicrosPerRequest: perRequest(wrkCpu),
    groupCpuMicrosPerRequest: Object.fromEntries(groupsUsed.map(([name, cpu]) => [name, perRequest(cpu)])),
    otherCores: Math.max(0, busy - serverCpu - groupsTotal - wrkCpu) / seconds,
    seconds,
  };
}

/**
 * Whether the time of an answer tells apart two requests that get the same answer: AuthCode for a
 * number in the school directory against one that is not, PushNotificationToGateway for a
 * registered device against an unknown one, and every scoped operation, called by a guardian and
 * by a teacher, for an id out of the caller's scope against one the school does not have (see
 * benchmark/timing-scoped-probes.ts). A benchmark, not a test: it prints figures.
 *
 *   npm run bench:timing [-- --no-build] [-- --calls 500] [-- --only GetExamTableByExamId]
 *
 * The compiled service runs on loopback on a demo school (1,000 students), with rate limits high
 * enough never to refuse, and no gateways (messages stay queued). For each probe the client
 * makes CALLS calls of each kind over SOAP 1.1 on one keep-alive connection, one at a time, in
 * pairs whose order is drawn at random, each to a number, device or unknown id not asked for
 * before (ids out of scope are fewer: they are asked for in turn), and times each from the first
 * byte sent to the last byte received. It prints the medians and the accuracy of the best
 * single-call classifier: the threshold on one call's time (and the side of it) that best tells
 * the two kinds apart over these calls; 50% is a coin toss.
 */
import { randomInt } from 'node:crypto';
import { Agent, request } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { academicYearStartOf } from '../src/demo/calendar';
import { loadDemoSchool } from '../src/demo/load-demo-school';
import { openStore } from '../src/store/open-store';
import { benchmarkServiceEnvironment, buildService, ROOT, SERVICE_ENTRY } from './benchmark/build';
import { freePort, ProcessGroup, waitForPort } from '../test/support/processes';
import { pushTo, scopedProbes, type TimingProbe } from './benchmark/timing-scoped-probes';

const NS = 'http://tempuri.org/';
const GENEROUS = '1000000';
const WARM_UP_CALLS = 100;
const REGISTERED = ['registered', 'unregistered'] as const;

/** The goals of the timing issue: medians within 0.02 ms, no classifier better than 55%. */
const GOAL_MEDIAN_GAP_MS = 0.02;
const GOAL_ACCURACY = 0.55;

interface Callees {
  readonly phones: string[];
  readonly devices: Array<{ applicationId: string; deviceId: string }>;
  /** The probes of the scoped operations, whose callers are in the store. */
  readonly scoped: TimingProbe[];
}

/** A demo school in a new store, the numbers and devices it has registered, and scoped callers. */
async function prepareSchool(dataDirectory: string, serviceBaseUrl: string): Promise<Callees> {
  const store = await openStore({ databaseUrl: undefined, dataDirectory });
  try {
    await loadDemoSchool(store, { students: 1000, seed: 1, startYear: academicYearStartOf(new Date()) });
    const phones = await store.db.selectFrom('guardians').select('phone').orderBy('id').execute();
    const devices = await store.db
      .selectFrom('devices')
      .select(['application_id', 'device_id'])
      .where('enabled', '=', 1)
      .orderBy('id')
      .execute();
    return {
      phones: phones.map((row) => row.phone),
      devices: devices.map((row) => ({ applicationId: row.application_id, deviceId: row.device_id })),
      scoped: await scopedProbes(store, serviceBaseUrl),
    };
  } finally {
    await store.close();
  }
}

function soapBody(operation: string, parameters: Record<string, string>): string {
  const fields = Object.entries(parameters)
    .map(([name, value]) => `<${name}>${value}</${name}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body><${operation} xmlns="${NS}">${fields}</${operation}></soap:Body></soap:Envelope>`
  );
}

/** One SOAP 1.1 call on the shared connection; resolves with its time in milliseconds. */
function timedCall(agent: Agent, port: number, probe: TimingProbe, body: string): Promise<number> {
  const { path, operation } = probe;
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    const started = process.hrtime.bigint();
    const call = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'Content-Type': 'text/xml; charset=utf-8',
          SOAPAction: `"${NS}${operation}"`,
          'Content-Length': bytes.length,
          ...probe.headers,
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => {
          const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
          if (response.statusCode === 200) resolve(elapsed);
          else reject(new Error(`${probe.label} answered ${response.statusCode}`));
        });
      },
    );
    call.once('error', reject);
    call.end(bytes);
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The accuracy of the best rule "of the first kind when the time is above t" (or below t), over
 * every threshold between two observed times: what an observer who knew both distributions could
 * do with one call.
 */
function bestClassifierAccuracy(registered: readonly number[], unregistered: readonly number[]): number {
  const samples = [
    ...registered.map((time) => ({ time, registered: true })),
    ...unregistered.map((time) => ({ time, registered: false })),
  ].sort((a, b) => a.time - b.time);
  const total = samples.length;
  // Below the threshold: how many of each kind so far.
  let registeredBelow = 0;
  let unregisteredBelow = 0;
  let best = 0;
  for (let index = 0; index <= total; index += 1) {
    if (index === total || index === 0 || samples[index].time !== samples[index - 1].time) {
      const aboveIsRegistered = unregisteredBelow + (registered.length - registeredBelow);
      const belowIsRegistered = registeredBelow + (unregistered.length - unregisteredBelow);
      best = Math.max(best, aboveIsRegistered / total, belowIsRegistered / total);
    }
    if (index < total) {
      if (samples[index].registered) registeredBelow += 1;
      else unregisteredBelow += 1;
    }
  }
  return best;
}

/** Mobile numbers of the demo school's shape (+9665 and eight digits) that it has not registered. */
function unregisteredNumbers(registered: ReadonlySet<string>, count: number): string[] {
  const numbers = new Set<string>();
  while (numbers.size < count) {
    const number = `+9665${String(randomInt(100_000_000)).padStart(8, '0')}`;
    if (!registered.has(number)) numbers.add(number);
  }
  return [...numbers];
}

function probesFor(callees: Callees, calls: number): TimingProbe[] {
  const needed = calls + WARM_UP_CALLS;
  if (callees.phones.length === 0 || callees.devices.length === 0) throw new Error('the demo school has no callees');
  const unknownPhones = unregisteredNumbers(new Set(callees.phones), needed);
  const applicationId = callees.devices[0].applicationId;
  if (callees.phones.length < needed || callees.devices.length < needed) {
    console.log(`(fewer registered callees than calls: some are asked for more than once)`);
  }
  return [
    {
      label: 'AuthCode',
      path: '/AuthCodeSending.asmx',
      operation: 'AuthCode',
      kinds: REGISTERED,
      parameters: (registered, index) => ({
        code: String(100_000 + randomInt(900_000)),
        phone: registered ? callees.phones[index % callees.phones.length] : unknownPhones[index],
      }),
    },
    {
      label: 'PushNotificationToGateway',
      path: '/PushNotificationMobile.asmx',
      operation: 'PushNotificationToGateway',
      kinds: REGISTERED,
      parameters: pushTo(callees.devices, applicationId),
    },
    ...callees.scoped,
  ];
}

interface ProbeResult {
  readonly registered: number[];
  readonly unregistered: number[];
}

async function runProbe(agent: Agent, port: number, probe: TimingProbe, calls: number): Promise<ProbeResult> {
  const call = (registered: boolean, index: number) =>
    timedCall(agent, port, probe, soapBody(probe.operation, probe.parameters(registered, index)));
  for (let index = 0; index < WARM_UP_CALLS; index += 1) {
    await call(true, calls + index);
    await call(false, calls + index);
  }
  const result: ProbeResult = { registered: [], unregistered: [] };
  for (let index = 0; index < calls; index += 1) {
    const registeredFirst = randomInt(2) === 0;
    for (const registered of registeredFirst ? [true, false] : [false, true]) {
      const time = await call(registered, index);
      (registered ? result.registered : result.unregistered).push(time);
    }
  }
  return result;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      build: { type: 'boolean', default: true },
      'no-build': { type: 'boolean', default: false },
      calls: { type: 'string', default: '500' },
      only: { type: 'string' },
    },
  });
  if (!values['no-build']) buildService();
  if (!existsSync(SERVICE_ENTRY)) throw new Error(`${SERVICE_ENTRY} is missing; run npm run build`);
  const calls = Number(values.calls);
  if (!Number.isInteger(calls) || calls < 10) throw new Error('--calls must be an integer of at least 10');
  const group = new ProcessGroup();
  const work = mkdtempSync(join(tmpdir(), 'benchmark-timing-'));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    console.log('Filling a demo school (1,000 students) ...');
    const port = await freePort();
    const callees = await prepareSchool(work, `http://127.0.0.1:${port}`);
    const child = group.spawn(process.execPath, [SERVICE_ENTRY], {
      cwd: ROOT,
      env: benchmarkServiceEnvironment(port, work, {
        AUTH_CODE_PER_PHONE_PER_MINUTE: GENEROUS,
        AUTH_CODE_PER_PHONE_PER_HOUR: GENEROUS,
        AUTH_CODE_PER_CALLER_PER_HOUR: GENEROUS,
        PUSH_PER_SENDER_PER_MINUTE: GENEROUS,
        PUSH_PER_CALLER_PER_MINUTE: GENEROUS,
        PUSH_PER_DEVICE_PER_MINUTE: GENEROUS,
        MARK_NOTES_PER_CALLER_PER_MINUTE: GENEROUS,
        LOG_LEVEL: 'error',
      }),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForPort(port, child, 30_000, 'the service');
    console.log(
      `${calls} calls of each kind per operation, interleaved, SOAP 1.1 on loopback; ` +
        `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}\n`,
    );
    let met = true;
    const only = values.only;
    for (const probe of probesFor(callees, calls).filter((each) => only === undefined || each.label.includes(only))) {
      const { registered, unregistered } = await runProbe(agent, port, probe, calls);
      const gap = median(registered) - median(unregistered);
      const accuracy = bestClassifierAccuracy(registered, unregistered);
      met &&= Math.abs(gap) <= GOAL_MEDIAN_GAP_MS && accuracy <= GOAL_ACCURACY;
      const difference = `${gap >= 0 ? '+' : ''}${gap.toFixed(3)} ms`;
      const [first, second] = probe.kinds;
      console.log(
        `${probe.label.padEnd(42)} median ${first} ${median(registered).toFixed(3)} ms, ` +
          `${second} ${median(unregistered).toFixed(3)} ms, difference ${difference}; ` +
          `best single-call classifier ${(accuracy * 100).toFixed(1)}%`,
      );
    }
    console.log(
      `\nGoal: medians within ${GOAL_MEDIAN_GAP_MS} ms and no classifier above ${Math.round(GOAL_ACCURACY * 100)}%: ` +
        `${met ? 'met' : 'NOT met'}.`,
    );
  } finally {
    agent.destroy();
    await group.stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

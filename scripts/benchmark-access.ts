/**
 * What recognising a caller adds to a call: server CPU per call of HelloWorld and GetStudentInfoById
 * (a student the empty store does not hold) over SOAP 1.1, anonymous from loopback (a local
 * caller), and as a caller recognised by its network, by HTTP Basic and by a WS-Security
 * UsernameToken (PasswordText), measured in one run with wrk on loopback.
 *
 *   npm run bench:access [-- --no-build] [-- --rounds 3 --duration 5]
 *
 * Two services run the same build: one with the default LOCAL_NETWORKS, where wrk's calls are
 * local; one whose local network is another address, with a caller for 127.0.0.0/8 (network) and
 * one with a secret (Basic, UsernameToken). A secret is checked once (scrypt) and then
 * remembered, as in production; the figures are of the calls after that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addCaller } from '../src/access/caller-admin';
import { keyFor, payloadSealer } from '../src/lib/payload-sealer';
import { openStore } from '../src/store/open-store';
import { benchmarkServiceEnvironment, buildService, checkBenchmarkTools, ROOT, SERVICE_ENTRY } from './benchmark/build';
import { sendScenario } from './benchmark/capture';
import { freePort, ProcessGroup, waitForPort } from '../test/support/processes';
import { HELLO_WORLD, type Operation, type Scenario, scenariosFor, VOID_LOOKUP } from './benchmark/scenarios';
import { type LoadResult, runWrk, writeWrkScript } from './benchmark/wrk';

const SERVICE_KEY = '6b'.repeat(32);
const GOAL_MICROS = 10;

interface Variant {
  readonly label: string;
  /** Which service answers it: the one where loopback is local, or the one where it is not. */
  readonly service: 'local' | 'remote';
  readonly headers: Readonly<Record<string, string>>;
  readonly soapHeader: string;
}

async function prepareRemoteStore(dataDirectory: string): Promise<string> {
  const store = await openStore({ databaseUrl: undefined, dataDirectory });
  try {
    const sealer = payloadSealer(keyFor(Buffer.from(SERVICE_KEY, 'hex'), 'caller-digest-secrets'));
    const common = { secret: false, wsDigest: false, operations: ['all'], scope: 'school', expires: undefined };
    await addCaller(store, { ...common, name: 'office', networks: ['127.0.0.0/8'] }, sealer, new Date());
    const { secret } = await addCaller(
      store,
      { ...common, name: 'app', networks: [], secret: true },
      sealer,
      new Date(),
    );
    return secret as string;
  } finally {
    await store.close();
  }
}

async function startService(
  group: ProcessGroup,
  dataDirectory: string,
  localNetworks: string,
): Promise<{ pid: number; port: number }> {
  const port = await freePort();
  const child = group.spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: benchmarkServiceEnvironment(port, dataDirectory, { OUTBOX_KEY: SERVICE_KEY, LOCAL_NETWORKS: localNetworks }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitForPort(port, child, 15_000, 'the service');
  return { pid: child.pid as number, port };
}

function withCredentials(scenario: Scenario, variant: Variant): Scenario {
  const body = variant.soapHeader
    ? scenario.body.replace('<soap:Body>', `${variant.soapHeader}<soap:Body>`)
    : scenario.body;
  return {
    ...scenario,
    name: `${scenario.name}, ${variant.label}`,
    headers: { ...scenario.headers, ...variant.headers },
    body,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      build: { type: 'boolean', default: true },
      'no-build': { type: 'boolean', default: false },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
    },
  });
  if (!values['no-build']) buildService();
  checkBenchmarkTools();
  const rounds = Number(values.rounds);
  const durationSeconds = Number(values.duration);
  const group = new ProcessGroup();
  const work = mkdtempSync(join(tmpdir(), 'benchmark-access-'));
  try {
    const secret = await prepareRemoteStore(join(work, 'remote'));
    const services = {
      local: await startService(group, join(work, 'local'), '127.0.0.0/8,::1'),
      remote: await startService(group, join(work, 'remote'), '192.0.2.1/32'),
    };
    const token =
      '<soap:Header>' +
      '<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">' +
      '<wsse:UsernameToken><wsse:Username>app</wsse:Username>' +
      `<wsse:Password>${secret}</wsse:Password></wsse:UsernameToken>` +
      '</wsse:Security></soap:Header>';
    const basic = `Basic ${Buffer.from(`app:${secret}`).toString('base64')}`;
    const variants: Variant[] = [
      { label: 'anonymous, local', service: 'local', headers: {}, soapHeader: '' },
      { label: 'network caller', service: 'remote', headers: {}, soapHeader: '' },
      { label: 'HTTP Basic', service: 'remote', headers: { Authorization: basic }, soapHeader: '' },
      { label: 'UsernameToken', service: 'remote', headers: {}, soapHeader: token },
    ];
    const operations: Operation[] = [HELLO_WORLD, VOID_LOOKUP];
    const cases = operations.flatMap((operation) =>
      variants.map((variant) => ({
        operation,
        variant,
        scenario: withCredentials(scenariosFor(operation)[0], variant),
      })),
    );
    for (const { variant, scenario } of cases) {
      const answer = await sendScenario(services[variant.service].port, scenario);
      if (answer.status !== 200) throw new Error(`${scenario.name}: ${answer.status} ${answer.body.toString('utf8')}`);
    }
    const scripts = cases.map(({ scenario }, index) => writeWrkScript(work, index, scenario));
    const results: LoadResult[][] = cases.map(() => []);
    const settings = { connections: 4, threads: 1, durationSeconds };
    console.log('Warming up ...');
    for (const [index, { variant, scenario }] of cases.entries()) {
      const { pid, port } = services[variant.service];
      await runWrk(group, scripts[index], `http://127.0.0.1:${port}${scenario.path}`, pid, {
        ...settings,
        durationSeconds: 2,
      });
    }
    for (let round = 0; round < rounds; round += 1) {
      console.log(`Round ${round + 1} of ${rounds} ...`);
      for (const [index, { variant, scenario }] of cases.entries()) {
        const { pid, port } = services[variant.service];
        results[index].push(
          await runWrk(group, scripts[index], `http://127.0.0.1:${port}${scenario.path}`, pid, settings),
        );
      }
    }
    console.log(`\n${new Date().toString()} | node ${process.version} | ${cpus().length} cores (${cpus()[0]?.model})`);
    console.log(
      `wrk -t1 -c4, ${durationSeconds} s per run, medians of ${rounds} rounds; ` +
        'CPU/call = server utime+stime / requests\n',
    );
    console.log('scenario                                              req/s   CPU/call   added');
    for (const operation of operations) {
      const ofOperation = cases
        .map((entry, index) => ({ ...entry, index }))
        .filter((entry) => entry.operation === operation);
      const base = median(results[ofOperation[0].index].map((result) => result.cpuMicrosPerRequest));
      for (const { scenario, index } of ofOperation) {
        const cpu = median(results[index].map((result) => result.cpuMicrosPerRequest));
        const rate = median(results[index].map((result) => result.requestsPerSecond));
        const added = cpu - base;
        console.log(
          `${scenario.name.padEnd(52)} ${Math.round(rate).toLocaleString('en').padStart(7)} ` +
            `${cpu.toFixed(1).padStart(7)} us ${added.toFixed(1).padStart(6)} us`,
        );
      }
    }
    console.log(`\nGoal: recognising a caller adds at most ${GOAL_MICROS} us of CPU per call.`);
  } finally {
    await group.stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

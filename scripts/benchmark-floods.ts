/**
 * What a parser flood costs the service: server CPU per request of each attack shape (1,300
 * elements of 99 attributes; 520 elements of 99 namespace declarations; a form of 150,000 fields;
 * a JSON body of 150,000 keys), beside a plain body of the same size in the same binding, from a
 * local address and from another one without credentials or with a wrong secret; and HelloWorld's
 * median latency while two clients flood.
 *
 *   npm run bench:floods [-- --no-build] [-- --requests 200]
 *
 * One compiled service runs with LOCAL_NETWORKS=127.0.0.1/32 and a caller with a secret, so
 * requests from 127.0.0.2 come from "another machine" (nothing leaves loopback). The plain bodies
 * are one text value of the attack's size; the service runs with the text and form-length budgets
 * raised above that size so that they are read whole and answered, as the goal compares with
 * reading a body, not with refusing one. Requests are sent one after another (two clients at a
 * time), and CPU is the service's utime+stime over them, divided by their number.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addCaller } from '../src/access/caller-admin';
import { keyFor, payloadSealer } from '../src/lib/payload-sealer';
import { openStore } from '../src/store/open-store';
import { benchmarkServiceEnvironment, buildService, ROOT, SERVICE_ENTRY } from './benchmark/build';
import { cpuSeconds, freePort, ProcessGroup, waitForPort } from '../test/support/processes';

const SERVICE_KEY = '6c'.repeat(32);
const NS = 'http://tempuri.org/';
const LOCAL = '127.0.0.1';
const REMOTE = '127.0.0.2';
const GOAL_RATIO = 3;

interface Shape {
  readonly name: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const SOAP = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };
const HELLO = '/GetStudentsNote.asmx';

function envelope(inside: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body><HelloWorld xmlns="${NS}">${inside}</HelloWorld></soap:Body></soap:Envelope>`
  );
}

function elements(count: number, attribute: (index: number) => string): string {
  return Array.from(
    { length: count },
    (_, element) => `<e${element % 10}${Array.from({ length: 99 }, (_, index) => ` ${attribute(index)}`).join('')}/>`,
  ).join('');
}

/** The attack shapes, each with a plain body of its size beside it. */
function shapes(): { attack: Shape; plain: Shape }[] {
  const attributes = envelope(elements(1300, (index) => `a${index}=""`));
  const namespaces = envelope(elements(520, (index) => `xmlns:n${index}="u"`));
  const form = 'a&'.repeat(150_000);
  const json = `{${Array.from({ length: 150_000 }, (_, index) => `"${(index % 1000).toString(36)}":1`).join(',')}}`;
  const plainXml = (size: number) => envelope(`<e>${'x'.repeat(size - envelope('<e></e>').length)}</e>`);
  return [
    {
      attack: { name: '1,300 elements x 99 attributes', path: HELLO, headers: SOAP, body: attributes },
      plain: { name: 'plain SOAP body, same size', path: HELLO, headers: SOAP, body: plainXml(attributes.length) },
    },
    {
      attack: { name: '520 elements x 99 xmlns', path: HELLO, headers: SOAP, body: namespaces },
      plain: { name: 'plain SOAP body, same size', path: HELLO, headers: SOAP, body: plainXml(namespaces.length) },
    },
    {
      attack: { name: 'form of 150,000 fields', path: `${HELLO}/HelloWorld`, headers: FORM, body: form },
      plain: {
        name: 'plain form, same size',
        path: `${HELLO}/HelloWorld`,
        headers: FORM,
        body: `a=${'x'.repeat(form.length - 2)}`,
      },
    },
    {
      attack: { name: 'JSON of 150,000 keys', path: `${HELLO}/HelloWorld`, headers: JSON_TYPE, body: json },
      plain: {
        name: 'plain JSON, same size',
        path: `${HELLO}/HelloWorld`,
        headers: JSON_TYPE,
        body: `{"a":"${'x'.repeat(json.length - 8)}"}`,
      },
    },
  ];
}

/**
 * The same body from another address: without credentials (SOAP reads the body, which may carry a
 * UsernameToken; a form or JSON body to an operation that needs a caller is refused before it is
 * read) and with the Basic header of a caller name no one has (refused before the body; a name
 * is used rather than a wrong secret so that the figure is of the body, not of a secret's check).
 */
function remoteVariants(attack: Shape): { label: string; shape: Shape }[] {
  const unknownCaller = { Authorization: `Basic ${Buffer.from('nobody:wrong').toString('base64')}` };
  const path = attack.path === HELLO ? HELLO : '/GetStudentsInformation.asmx/GetStudentInfoById';
  return [
    { label: 'remote, no credentials', shape: { ...attack, path } },
    { label: 'remote, unknown Basic caller', shape: { ...attack, headers: { ...attack.headers, ...unknownCaller } } },
  ];
}

const agents = new Map<string, Agent>();
function agentFor(from: string): Agent {
  let agent = agents.get(from);
  if (!agent) {
    agent = new Agent({ keepAlive: true, localAddress: from });
    agents.set(from, agent);
  }
  return agent;
}

/** One request; resolves with the status (0 when the service closed the connection before answering). */
function send(port: number, shape: Shape, from: string): Promise<number> {
  return new Promise((resolve) => {
    const body = Buffer.from(shape.body, 'utf8');
    const outgoing = request(
      {
        host: LOCAL,
        port,
        path: shape.path,
        method: 'POST',
        agent: agentFor(from),
        headers: { ...shape.headers, 'Content-Length': String(body.length) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    // A refusal before the body closes the connection while the body is on its way.
    outgoing.on('error', () => resolve(0));
    outgoing.end(body);
  });
}

/** Server CPU microseconds per request over `requests` of the shape, two clients at a time. */
async function cpuPerRequest(pid: number, port: number, shape: Shape, from: string, requests: number): Promise<number> {
  const status = await send(port, shape, from);
  const before = cpuSeconds(pid);
  const client = async (count: number) => {
    for (let index = 0; index < count; index += 1) await send(port, shape, from);
  };
  await Promise.all([client(Math.ceil(requests / 2)), client(Math.floor(requests / 2))]);
  const micros = ((cpuSeconds(pid) - before) * 1e6) / requests;
  if (process.env.FLOODS_VERBOSE) console.log(`  ${shape.name} from ${from}: status ${status}`);
  return micros;
}

/** HelloWorld's median latency in ms, sent alone or while two clients send `flood`. */
async function helloLatency(port: number, flood?: Shape): Promise<number> {
  let flooding = flood !== undefined;
  const floods = [0, 1].map(async () => {
    while (flooding && flood) await send(port, flood, REMOTE);
  });
  const hello: Shape = { name: 'HelloWorld', path: HELLO, headers: SOAP, body: envelope('') };
  const times: number[] = [];
  for (let index = 0; index < 200; index += 1) {
    const start = process.hrtime.bigint();
    await send(port, hello, LOCAL);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  flooding = false;
  await Promise.all(floods);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function prepareStore(dataDirectory: string): Promise<void> {
  const store = await openStore({ databaseUrl: undefined, dataDirectory });
  try {
    const sealer = payloadSealer(keyFor(Buffer.from(SERVICE_KEY, 'hex'), 'caller-digest-secrets'));
    const caller = { secret: true, wsDigest: false, operations: ['all'], scope: 'school', expires: undefined };
    await addCaller(store, { ...caller, name: 'app', networks: [] }, sealer, new Date());
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'no-build': { type: 'boolean', default: false }, requests: { type: 'string', default: '200' } },
  });
  const requests = Number(values.requests);
  if (!values['no-build']) buildService();
  const group = new ProcessGroup();
  const work = mkdtempSync(join(tmpdir(), 'benchmark-floods-'));
  try {
    await prepareStore(work);
    const port = await freePort();
    const child = group.spawn(process.execPath, [SERVICE_ENTRY], {
      cwd: ROOT,
      env: benchmarkServiceEnvironment(port, work, {
        OUTBOX_KEY: SERVICE_KEY,
        LOCAL_NETWORKS: '127.0.0.1/32',
        // The plain bodies are read whole: the goal compares a flood with reading a body.
        REQUEST_MAX_TEXT_CHARACTERS: '4194304',
        REQUEST_MAX_FORM_CHARACTERS: '4194304',
        MAX_BODY_BYTES: '4194304',
        LOG_LEVEL: 'silent',
      }),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForPort(port, child, 15_000, 'the service');
    const pid = child.pid as number;
    console.log(`\n${new Date().toString()} | node ${process.version} | ${cpus().length} cores (${cpus()[0]?.model})`);
    console.log(`${requests} requests per row, two clients; CPU/request = service utime+stime / requests\n`);
    console.log(`${'shape'.padEnd(34)} ${'from'.padEnd(28)} ${'bytes'.padStart(9)} ${'CPU/req'.padStart(10)}  ratio`);
    let worst = 0;
    for (const { attack, plain } of shapes()) {
      const base = await cpuPerRequest(pid, port, plain, LOCAL, requests);
      const row = (shape: Shape, from: string, micros: number, ratio?: number) =>
        console.log(
          `${shape.name.padEnd(34)} ${from.padEnd(28)} ${shape.body.length.toLocaleString('en').padStart(9)} ` +
            `${(micros / 1000).toFixed(2).padStart(7)} ms  ${ratio === undefined ? '' : `${ratio.toFixed(2)}x`}`,
        );
      row(plain, 'local', base);
      const measured = [{ label: 'local', shape: attack, from: LOCAL }].concat(
        remoteVariants(attack).map((variant) => ({ ...variant, from: REMOTE })),
      );
      for (const { label, shape, from } of measured) {
        const micros = await cpuPerRequest(pid, port, shape, from, requests);
        worst = Math.max(worst, micros / base);
        row(shape, label, micros, micros / base);
      }
    }
    const idle = await helloLatency(port);
    const flooded = await helloLatency(port, shapes()[0].attack);
    console.log(`\nHelloWorld p50: ${idle.toFixed(2)} ms alone, ${flooded.toFixed(2)} ms beside two attribute floods`);
    console.log(`Worst ratio ${worst.toFixed(2)}x; goal: at most ${GOAL_RATIO}x a plain body of the same size.`);
  } finally {
    for (const agent of agents.values()) agent.destroy();
    await group.stopAll();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

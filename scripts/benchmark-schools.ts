/**
 * A district of N schools (100 by default), each of the demo school's size (the 500 students a new
 * store gets with DEMO_DATA), registered with `schools add` and served by the compiled service on
 * SQLite. It measures:
 *
 * - the service's memory (Pss) once the first school has answered, and once every school has: the
 *   memory per school beyond the first (goal: under 1 MB);
 * - p99 of the typed GetStudentInfoById (SOAP 1.1), the same calls spread over every school and
 *   asked of one school, alternated;
 * - a school's first call after idle (goal: under 50 ms): with SCHOOLS_IDLE_CLOSE_SECONDS=1, each of
 *   up to 20 schools is asked once, left until it closes, and asked again.
 *
 * The demo school is loaded once (`demo-data`) and its store copied into each school's folder, as
 * loading it 100 times would take most of the run: each school still has a store file of its own.
 * A benchmark, not a test: it checks nothing.
 *
 *   npm run bench:schools                       100 schools
 *   npm run bench:schools -- --schools 20       fewer, for a quick run
 *   npm run bench:schools -- --no-build         measure the existing dist/
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { schoolFolder } from '../src/district/school-list';
import { freePort, procFile, processTree } from '../test/support/processes';
import { benchmarkServiceEnvironment, buildService, SERVICE_ENTRY } from './benchmark/build';
import { runCli } from './benchmark/run-cli';

/** The running service's address: each start takes a free port, so that a port in use elsewhere stops no run. */
let serviceBase = '';
const OUTBOX_KEY = 'ab'.repeat(32);
const STUDENTS = 500;
const CONCURRENCY = 4;
const IDLE_SCHOOLS = 20;
const NS = 'http://tempuri.org/';
const SOAP_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GetStudentInfoById"` };

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function lookup(studentId: number): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body><GetStudentInfoById xmlns="${NS}"><StudentId>${studentId}</StudentId></GetStudentInfoById>` +
    '</soap:Body></soap:Envelope>'
  );
}

/** One typed student lookup at a school's path; its time in ms, from the request to the answer's end. */
function timedLookup(path: string, studentId: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const body = lookup(studentId);
    const outgoing = request(
      `${serviceBase}${path}/GetStudentsInformation.asmx`,
      { method: 'POST', agent, headers: { ...SOAP_HEADERS, 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200 || !text.includes('<StudentId>')) {
            reject(new Error(`${path} answered ${response.statusCode}: ${text.slice(0, 300)}`));
          } else resolve(performance.now() - started);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Whether a GET of `path` is answered 200: the service listens. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const outgoing = request(`${serviceBase}${path}`, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200));
    });
    outgoing.on('error', () => resolve(false));
    outgoing.end();
  });
}

const pathOf = (index: number) => `/s${index + 1}`;
const anyStudent = () => 1 + Math.floor(Math.random() * STUDENTS);

/** Makes the district: `schools add` for each school, then the demo school's store copied into its folder. */
async function makeDistrict(dataDirectory: string, schools: number): Promise<void> {
  const seeded = mkdtempSync(join(tmpdir(), 'school-district-seed-'));
  try {
    const loaded = await runCli(['demo-data', '--students', String(STUDENTS), '--seed', '1'], {
      DATA_DIR: seeded,
      OUTBOX_KEY,
    });
    console.log(`Demo school of ${STUDENTS} students loaded in ${loaded.seconds.toFixed(1)} s`);
    const started = performance.now();
    for (let index = 0; index < schools; index += 1) {
      const sourcedId = `org-${index + 1}`;
      await runCli(['schools', 'add', sourcedId, '--path', pathOf(index)], { DATA_DIR: dataDirectory, OUTBOX_KEY });
      copyFileSync(join(seeded, 'school.sqlite'), join(schoolFolder(dataDirectory, sourcedId), 'school.sqlite'));
    }
    console.log(`${schools} schools added in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(seeded, { recursive: true, force: true });
  }
}

/** The service's memory now: Pss over its processes, in MB. */
function memoryMegabytes(pid: number): number {
  let kilobytes = 0;
  for (const member of processTree(pid)) {
    kilobytes += Number(/^Pss:\s+(\d+)/m.exec(procFile(member, 'smaps_rollup'))?.[1] ?? 0);
  }
  return kilobytes / 1024;
}

async function startService(dataDirectory: string, settings: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  serviceBase = `http://127.0.0.1:${port}`;
  const environment = benchmarkServiceEnvironment(port, dataDirectory, {
    CONTRACT: 'typed',
    OUTBOX_KEY,
    ...settings,
  });
  const service = spawn(process.execPath, [SERVICE_ENTRY], { env: environment, stdio: 'inherit' });
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}`);
    if (await answers('/GetStudentsInformation.asmx?WSDL')) return service;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the service did not start');
}

async function stopService(service: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => service.once('exit', resolve));
  service.kill('SIGTERM');
  await exited;
}

/** `calls` lookups at CONCURRENCY, each at the path `pick` gives; the sorted times. */
async function load(calls: number, pick: () => string): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < calls) {
      next += 1;
      times.push(await timedLookup(pick(), anyStudent()));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return times.sort((a, b) => a - b);
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** Memory once one school, then every school, has answered; p99 across schools and at one, alternated. */
async function measureServing(dataDirectory: string, schools: number, calls: number): Promise<string[]> {
  const service = await startService(dataDirectory, {
    SCHOOLS_OPEN_MAX: String(schools),
    SCHOOLS_IDLE_CLOSE_SECONDS: '3600',
  });
  try {
    await load(200, () => pathOf(0));
    const first = memoryMegabytes(service.pid as number);
    for (let index = 1; index < schools; index += 1) {
      for (let call = 0; call < 20; call += 1) await timedLookup(pathOf(index), anyStudent());
    }
    const all = memoryMegabytes(service.pid as number);
    const perSchool = (all - first) / Math.max(1, schools - 1);
    const across: number[] = [];
    const one: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      across.push(...(await load(calls / 2, () => pathOf(Math.floor(Math.random() * schools)))));
      one.push(...(await load(calls / 2, () => pathOf(0))));
    }
    across.sort((a, b) => a - b);
    one.sort((a, b) => a - b);
    return [
      `| Memory (Pss) once 1 school has answered | ${first.toFixed(1)} MB | |`,
      `| Memory once all ${schools} have answered | ${all.toFixed(1)} MB | ` +
        `${perSchool.toFixed(2)} MB per school beyond the first (goal < 1) |`,
      `| Typed GetStudentInfoById, ${calls} calls at ${CONCURRENCY} connections, across the ${schools} schools | ` +
        `p50 ${percentile(across, 0.5).toFixed(2)} ms | p99 ${percentile(across, 0.99).toFixed(2)} ms |`,
      `| The same calls at one school | p50 ${percentile(one, 0.5).toFixed(2)} ms | ` +
        `p99 ${percentile(one, 0.99).toFixed(2)} ms |`,
    ];
  } finally {
    await stopService(service);
  }
}

/** A school's first call after it closed for idleness, at up to IDLE_SCHOOLS schools, one after another. */
async function measureAfterIdle(dataDirectory: string, schools: number): Promise<string> {
  const service = await startService(dataDirectory, { SCHOOLS_IDLE_CLOSE_SECONDS: '1' });
  try {
    const asked = Math.min(schools, IDLE_SCHOOLS);
    for (let index = 0; index < asked; index += 1) await timedLookup(pathOf(index), anyStudent());
    const times: number[] = [];
    for (let index = 0; index < asked; index += 1) {
      // Past the idle second and the look that closes it (every quarter of it).
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      times.push(await timedLookup(pathOf(index), anyStudent()));
    }
    times.sort((a, b) => a - b);
    return (
      `| First call after idle (SCHOOLS_IDLE_CLOSE_SECONDS=1), ${asked} schools | ` +
      `median ${percentile(times, 0.5).toFixed(1)} ms | max ${(times.at(-1) as number).toFixed(1)} ms (goal < 50) |`
    );
  } finally {
    await stopService(service);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      schools: { type: 'string', default: '100' },
      calls: { type: 'string', default: '4000' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const schools = Number(values.schools);
  if (!(Number.isInteger(schools) && schools >= 2 && schools <= 1_000)) throw new Error('--schools is from 2 to 1000');
  const calls = Number(values.calls);
  if (!(Number.isInteger(calls) && calls >= 100 && calls <= 1_000_000)) {
    throw new Error('--calls is from 100 to 1000000');
  }
  if (!values['no-build']) buildService();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-bench-'));
  try {
    await makeDistrict(dataDirectory, schools);
    const rows = await measureServing(dataDirectory, schools, calls);
    rows.push(await measureAfterIdle(dataDirectory, schools));
    console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB`);
    console.log(`District: ${schools} schools of ${STUDENTS} students, SQLite, one process\n`);
    console.log('| Measure | Figure | |\n|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    agent.destroy();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

/**
 * The OneRoster provider on the school of bench:import (100,000 users, 3,000 classes, 200,000
 * enrollments, 5,000,000 results by default), imported into a new SQLite store: an LMS's
 * `GET /users?limit=10000` (time to its first byte, to its last, the first time and again, the
 * service's peak resident memory) and `PUT /results/{id}` one after another (p50 and p99, the
 * audit trail on, as always: the first ones, while the service warms up, apart from the rest; then,
 * after a quiet spell in which the copy of users.csv is read, a page and PUTs again).
 * A benchmark, not a test: it checks nothing.
 *
 *   npm run bench:provider                      the issue's sizes
 *   npm run bench:provider -- --scale 0.05      a twentieth of them, for a quick run
 *   npm run bench:provider -- --no-build        measure the existing dist/
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { benchmarkServiceEnvironment, buildService, SERVICE_ENTRY } from './benchmark/build';
import { residentPeaksMegabytes } from './benchmark/memory';
import { runCli } from './benchmark/run-cli';
import { generateBundle, scaledSize } from './benchmark-import/generate-bundle';

const PORT = 18_351;
const BASE = `http://127.0.0.1:${PORT}`;
const ROSTERING = '/ims/oneroster/rostering/v1p2';
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';

interface Timed {
  readonly status: number;
  readonly firstByteMs: number;
  readonly totalMs: number;
  readonly body: string;
}

/** One request on loopback, timed from its start to the first byte of the body and to its end. */
function timed(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const outgoing = request(`${BASE}${path}`, { method, headers }, (response) => {
      let firstByteMs = -1;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          firstByteMs,
          totalMs: performance.now() - started,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function started(service: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (service.exitCode !== null) throw new Error(`the service exited with ${service.exitCode}`);
    const ready = await timed('GET', '/GetStudentsNote.asmx', {}).catch(() => undefined);
    if (ready?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the service did not start');
}

/** A result of the bundle: its line item and student, for PUTs of results the store accepts. */
async function firstResult(bundle: string): Promise<{ lineItem: string; student: string }> {
  const lines = createInterface({ input: createReadStream(join(bundle, 'results.csv')) });
  let header: string[] | undefined;
  for await (const line of lines) {
    const cells = line.split(',');
    if (!header) header = cells;
    else {
      lines.close();
      return {
        lineItem: cells[header.indexOf('lineItemSourcedId')],
        student: cells[header.indexOf('studentSourcedId')],
      };
    }
  }
  throw new Error('the bundle has no results');
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/**
 * The PUTs a service answers first are slower (its code not yet optimised, its statements not yet
 * compiled and prepared): they are timed apart, and the steady p50 and p99 are of the ones after.
 */
const WARM_UP_PUTS = 50;

/** Long enough for the copy of a 100,000-user school's users.csv to be read behind the first pages. */
const QUIET_SPELL_MS = 20_000;

/** `count` PUTs of results one after another, each timed; the times sorted. */
async function timePuts(
  bearer: Record<string, string>,
  of: { readonly lineItem: string; readonly student: string },
  from: number,
  count: number,
): Promise<number[]> {
  const json = { ...bearer, 'Content-Type': 'application/json' };
  const times: number[] = [];
  for (let index = from; index < from + count; index += 1) {
    const result = { lineItem: { sourcedId: of.lineItem }, student: { sourcedId: of.student }, score: index % 20 };
    const body = JSON.stringify({ result: { ...result, status: 'active', scoreStatus: 'fully graded' } });
    const put = await timed('PUT', `${GRADEBOOK}/results/bench-r-${index % 50}`, json, body);
    if (put.status >= 300) throw new Error(`PUT answered ${put.status}: ${put.body.slice(0, 300)}`);
    times.push(put.totalMs);
  }
  return times.sort((a, b) => a - b);
}

function putRow(what: string, sorted: readonly number[]): string {
  return `| ${what} | p50 ${percentile(sorted, 0.5).toFixed(1)} ms | p99 ${percentile(sorted, 0.99).toFixed(1)} ms |`;
}

async function measure(bundle: string, puts: number, users: number): Promise<string[]> {
  const secretRun = await runCli(['callers', 'add', 'lms', '--secret', '--operations', 'roster,gradebook'], {
    DATA_DIR: join(bundle, '..', 'store'),
  });
  const secret = /Secret of lms[^\n]*\n\s+(\S+)/.exec(secretRun.output)?.[1];
  if (!secret) throw new Error(`callers add printed no secret:\n${secretRun.output}`);
  const environment = benchmarkServiceEnvironment(PORT, join(bundle, '..', 'store'), {
    ONEROSTER_REQUESTS_PER_MINUTE: '100000',
  });
  const service = spawn(process.execPath, [SERVICE_ENTRY], { env: environment, stdio: 'inherit' });
  try {
    await started(service);
    const basic = `Basic ${Buffer.from(`lms:${secret}`).toString('base64')}`;
    const form = { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' };
    const granted = await timed('POST', '/oauth/token', form, 'grant_type=client_credentials');
    if (granted.status !== 200) throw new Error(`the token endpoint answered ${granted.status}: ${granted.body}`);
    const token = JSON.parse(granted.body);
    const bearer = { Authorization: `Bearer ${token.access_token}` };
    const rows: string[] = [];
    const readPage = async (offset: number, when: string) => {
      const page = await timed('GET', `${ROSTERING}/users?limit=10000&offset=${offset}`, bearer);
      if (page.status !== 200) throw new Error(`GET /users answered ${page.status}: ${page.body.slice(0, 300)}`);
      const count = (JSON.parse(page.body).users as unknown[]).length;
      const megabytes = (page.body.length / 2 ** 20).toFixed(1);
      rows.push(
        `| GET /users?limit=10000&offset=${offset} (${count} records, ${megabytes} MB), ${when} ` +
          `| ${page.firstByteMs.toFixed(0)} ms | ${page.totalMs.toFixed(0)} ms |`,
      );
    };
    // The first read makes the provider's copy of the users; the next ones read the copy.
    await readPage(0, 'first');
    await readPage(0, 'again');
    await readPage(Math.max(0, users - 10_000), 'the last page');
    const { lineItem, student } = await firstResult(bundle);
    const first = await timePuts(bearer, { lineItem, student }, 0, WARM_UP_PUTS);
    const warm = await timePuts(bearer, { lineItem, student }, WARM_UP_PUTS, puts);
    // Marks are not in the copy: writing them leaves it current.
    await readPage(0, 'after the PUTs');
    // The first pages start users.csv's read into memory behind them; the PUTs above may have shared
    // the thread with it. After a quiet spell it is done: the pages and PUTs after it are without it.
    await new Promise((resolve) => setTimeout(resolve, QUIET_SPELL_MS));
    await readPage(0, `after ${QUIET_SPELL_MS / 1000} s without requests`);
    const quiet = await timePuts(bearer, { lineItem, student }, WARM_UP_PUTS + puts, puts);
    const peak = residentPeaksMegabytes(service.pid as number);
    rows.push(`| Peak resident memory of the service, the copy of users.csv read | ${peak.toFixed(0)} MB | |`);
    rows.push(putRow(`PUT /results/{id}, the first ${WARM_UP_PUTS} (warming up)`, first));
    rows.push(putRow(`PUT /results/{id}, ${puts} more one after another`, warm));
    rows.push(putRow(`PUT /results/{id}, ${puts} more after the quiet spell`, quiet));
    return rows;
  } finally {
    const exited = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      puts: { type: 'string', default: '500' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale is a fraction above 0, at most 1');
  const puts = Number(values.puts);
  if (!(Number.isInteger(puts) && puts >= 10 && puts <= 100_000)) throw new Error('--puts is from 10 to 100000');
  if (!values['no-build']) buildService();
  const work = mkdtempSync(join(tmpdir(), 'school-provider-bench-'));
  try {
    const bundle = join(work, 'bundle');
    const size = scaledSize(scale);
    await generateBundle(bundle, size);
    const imported = await runCli(['import', bundle], { DATA_DIR: join(work, 'store') });
    console.log(`Imported ${size.users} users, ${size.results} results in ${imported.seconds.toFixed(1)} s`);
    const rows = await measure(bundle, puts, size.users);
    console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB`);
    console.log(`School: ${size.users} users, ${size.results} results, SQLite\n`);
    console.log('| Measure | First byte / p50 | Whole answer / p99 |\n|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

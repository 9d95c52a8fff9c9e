/**
 * The bytes the typed XML writer allocates a call: a benchmark, not a test; it prints figures and
 * checks nothing.
 *
 *   npm run bench:allocations                      3 rounds of 5,000 calls a scenario
 *   npm run bench:allocations -- --calls 20000 --rounds 5
 *
 * It fills a SQLite store in a temporary folder with a small demo school, reads a real student's
 * information and a class's attendance as the handlers do, then writes each result as the SOAP
 * binding's answer, many times in a row, in this process. With a young generation large enough for
 * a round (the npm script gives node --max-semi-space-size), no collection runs while a round is
 * counted, and the growth of the V8 heap over the round, divided by its calls, is what a call
 * allocated there; a round in which a collection ran is marked. Buffers live outside that heap
 * and a large one makes V8 collect, so their bytes are counted where they are asked for
 * (Buffer.allocUnsafe, which the writer uses, wrapped for the run). Each round is printed, and the
 * median of the rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SoapResultWriter } from '../src/bindings/soap/result-writer';
import { SOAP11 } from '../src/bindings/soap/soap-version';
import { loadCatalog } from '../src/contract/catalog';
import { loadDemoSchool } from '../src/demo/load-demo-school';
import { openStore } from '../src/store/open-store';
import { classAttendance } from '../src/store/queries/classes';
import { studentInfoByStudentId } from '../src/store/queries/students';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '3' } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const TODAY = '2026-11-22';

const collectGarbage = (globalThis as { gc?: () => void }).gc;
let collections = 0;
let bufferBytes = 0;
const allocUnsafe = Buffer.allocUnsafe;
Buffer.allocUnsafe = (size: number) => {
  bufferBytes += size;
  return allocUnsafe(size);
};
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });

interface Round {
  readonly heap: number;
  readonly buffers: number;
  readonly collected: boolean;
}

/** One round: the heap's and the buffers' growth a call, and whether a collection ran meanwhile. */
async function round(write: () => unknown): Promise<Round> {
  collectGarbage?.();
  // A collection's entry reaches the observer some turns later: let it arrive before counting.
  await settle();
  const heapBefore = process.memoryUsage().heapUsed;
  const buffersBefore = bufferBytes;
  const collectionsBefore = collections;
  for (let call = 0; call < CALLS; call++) write();
  const heapAfter = process.memoryUsage().heapUsed;
  const buffersAfter = bufferBytes;
  await settle();
  return {
    heap: (heapAfter - heapBefore) / CALLS,
    buffers: (buffersAfter - buffersBefore) / CALLS,
    collected: collections > collectionsBefore,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
const median = (numbers: readonly number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const bytes = (value: number) => `${value.toFixed(0)} B`;

async function main(): Promise<void> {
  if (!collectGarbage) throw new Error('run under node --expose-gc (npm run bench:allocations does)');
  const folder = mkdtempSync(join(tmpdir(), 'bench-allocations-'));
  const store = await openStore({ dataDirectory: folder, databaseUrl: undefined });
  try {
    await loadDemoSchool(store, { students: 120, seed: 7, startYear: 2026 });
    const catalog = await loadCatalog(join(__dirname, '..', 'wsdl'));
    const operation = (name: string) => {
      const found = catalog.operations.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`no operation ${name}`);
      return found;
    };
    const student = await studentInfoByStudentId(store, 1, TODAY);
    const klass = await store.db.selectFrom('classes').select('id').orderBy('id').executeTakeFirstOrThrow();
    const attendance = await classAttendance(store, klass.id);
    const writer = new SoapResultWriter('http://tempuri.org/', 'typed');
    const scenarios: Array<[string, () => Buffer]> = [
      ['GetStudentInfoById (real student)', () => writer.responseFor(operation('GetStudentInfoById'), SOAP11, student)],
      [
        `GetAllAuditsByClassId (${attendance.length} records)`,
        () => writer.responseFor(operation('GetAllAuditsByClassId'), SOAP11, attendance),
      ],
    ];
    console.log(`${CALLS} calls a round, ${ROUNDS} rounds, SOAP 1.1, node ${process.version}`);
    for (const [name, write] of scenarios) {
      const size = write().length;
      for (let call = 0; call < 2000; call++) write();
      const rounds: Round[] = [];
      for (let index = 0; index < ROUNDS; index++) rounds.push(await round(write));
      const each = rounds
        .map((r) => `${bytes(r.heap)} + ${bytes(r.buffers)}${r.collected ? ' (a collection ran)' : ''}`)
        .join('; ');
      console.log(
        `${name}, ${size} bytes answered: heap ${bytes(median(rounds.map((r) => r.heap)))} a call, ` +
          `buffers ${bytes(median(rounds.map((r) => r.buffers)))} a call (medians; rounds: ${each})`,
      );
    }
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * Report cards in a row: the time of each GenerateReport call and the process's memory over the
 * run. A benchmark, not a test: it prints figures and checks nothing.
 *
 *   npm run bench:reports                              1,000 report cards for 1,000 students
 *   npm run bench:reports -- --reports 2000 --students 500
 *
 * It fills a new SQLite store in a temporary folder with a demo school, then calls the
 * GenerateReport handler (the one every binding calls) for one student after another, in a term
 * in progress. Each call queries the store, fingerprints the content, renders the PDF and stores
 * it; with more reports than students the later calls find their document stored and return it,
 * which is timed apart. Memory (RSS and the V8 heap after a full collection) is sampled at the
 * start, after every 100 reports and at the end: a heap that returns to the same level shows that
 * nothing accumulates. Run under node --expose-gc (the npm script does) for the heap figures.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config/service-config';
import { payloadSealer } from '../src/lib/payload-sealer';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { SCHOOL_SCOPE } from '../src/access/scope';
import { Visibility } from '../src/access/visibility';
import type { OperationContext } from '../src/operations/operation';
import { generateReport } from '../src/operations/reports';
import { loadDemoSchool } from '../src/demo/load-demo-school';
import { openStore } from '../src/store/open-store';

const GOAL_MILLISECONDS = 100;
const SAMPLE_EVERY = 100;

interface MemorySample {
  readonly after: string;
  readonly rss: number;
  readonly heapUsed: number;
}

const collectGarbage = (globalThis as { gc?: () => void }).gc;

function sampleMemory(after: string): MemorySample {
  collectGarbage?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { after, rss, heapUsed };
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const milliseconds = (value: number) => `${value.toFixed(1)} ms`;

function summary(label: string, times: readonly number[]): string {
  const sorted = [...times].sort((left, right) => left - right);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return (
    `${label.padEnd(34)} n=${String(times.length).padStart(5)}  median ${milliseconds(percentile(sorted, 0.5))}  ` +
    `p90 ${milliseconds(percentile(sorted, 0.9))}  p99 ${milliseconds(percentile(sorted, 0.99))}  ` +
    `max ${milliseconds(sorted[sorted.length - 1])}  mean ${milliseconds(mean)}`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      reports: { type: 'string', default: '1000' },
      students: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '7' },
    },
  });
  const reports = Number(values.reports);
  const students = Number(values.students);
  if (!Number.isInteger(reports) || reports < 1 || !Number.isInteger(students) || students < 1)
    throw new Error('--reports and --students must be positive whole numbers');

  const directory = mkdtempSync(join(tmpdir(), 'school-bench-reports-'));
  const store = await openStore({ databaseUrl: undefined, dataDirectory: directory });
  try {
    const startYear = 2026;
    await loadDemoSchool(store, { students, seed: Number(values.seed), startYear });
    const now = new Date(`${startYear}-11-22T08:00:00Z`);
    const context: OperationContext = {
      call: {
        callerName: 'benchmark',
        scope: SCHOOL_SCOPE,
        address: 'benchmark',
        requestBaseUrl: 'http://localhost',
        federationCredential: undefined,
      },
      visibility: new Visibility(store, SCHOOL_SCOPE),
      touched: () => undefined,
      store,
      notificationSettings: loadConfig({ DATA_DIR: directory, LOG_LEVEL: 'silent' }).notifications,
      now,
      today: `${startYear}-11-22`,
      outboxChanged: () => undefined,
      sealer: payloadSealer(randomBytes(32)),
      endpointPathOf: () => '/',
    };
    // Report cards queue no messages and call no school: the context's notification parts are inert.
    const classes = new Map(
      (await store.db.selectFrom('student_records').select(['student_id', 'class_id']).execute()).map((row) => [
        row.student_id,
        row.class_id,
      ]),
    );

    console.log(`Report cards in a row: ${new Date().toISOString()}`);
    console.log(
      `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${megabytes(totalmem())} memory; ` +
        `Node ${process.version}; SQLite store; demo school of ${students} students`,
    );
    if (!collectGarbage)
      console.log('(heap figures are without a forced collection: run under node --expose-gc for comparable ones)');

    const samples = [sampleMemory('start')];
    const rendered: number[] = [];
    const stored: number[] = [];
    let bytes = 0;
    for (let index = 0; index < reports; index += 1) {
      const studentId = (index % students) + 1;
      const parameters = { studentId, studentClass: String(classes.get(studentId)) };
      const started = performance.now();
      const document = await generateReport.handle(parameters, context);
      const elapsed = performance.now() - started;
      if (!document) throw new Error(`no report card for student ${studentId}`);
      (index < students ? rendered : stored).push(elapsed);
      bytes += document.size;
      if ((index + 1) % SAMPLE_EVERY === 0 && index + 1 < reports) samples.push(sampleMemory(`${index + 1} reports`));
    }
    samples.push(sampleMemory(`end (${reports} reports)`));

    console.log(`First report (fonts parsed, nothing cached): ${milliseconds(rendered[0])}`);
    console.log(summary('rendered and stored', rendered));
    if (stored.length > 0) console.log(summary('unchanged, returned from the store', stored));
    const median = percentile(
      [...rendered].sort((left, right) => left - right),
      0.5,
    );
    console.log(
      `Goal: a report card under ${GOAL_MILLISECONDS} ms at the median: ` +
        `${median < GOAL_MILLISECONDS ? 'met' : 'NOT met'} (${milliseconds(median)}); ` +
        `average PDF ${(bytes / reports / 1024).toFixed(1)} KB`,
    );
    console.log('Memory:');
    for (const sample of samples)
      console.log(
        `  ${sample.after.padEnd(22)} RSS ${megabytes(sample.rss).padStart(9)}   ` +
          `heap used ${megabytes(sample.heapUsed).padStart(8)}`,
      );
  } finally {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:reports: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

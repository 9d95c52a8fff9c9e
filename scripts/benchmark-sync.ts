/**
 * The OneRoster REST sync at the size the issue names (100,000 users, 3,000 classes, 200,000
 * enrollments, 5,000,000 results), beside the CSV import of the same school: the import benchmark's
 * bundle is imported with the built command into a new SQLite store, and the same school, served
 * as OneRoster REST JSON by the tests' stand-in provider on loopback in pages of 1,000, is synced
 * into another; then a delta of 1,000 changed results. It prints the time, the sync process's peak
 * memory (Pss) and the requests of each. A benchmark, not a test: it checks nothing.
 *
 *   npm run bench:sync                                the issue's sizes, OneRoster 1.2
 *   npm run bench:sync -- --scale 0.05 --version 1.1  a twentieth of them, 1.1 signed requests
 *   npm run bench:sync -- --no-build                   measure the existing dist/
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { type Json, OneRosterProvider, type RecordList, recordMaker } from '../test/support/oneroster-provider';
import { ONEROSTER_FILES } from '../src/roster/manifest';
import { buildService } from './benchmark/build';
import { runCli } from './benchmark/run-cli';
import { generateBundle, scaledSize } from './benchmark-import/generate-bundle';

const GOALS = { fullRatio: 1.5, deltaSeconds: 10, peakMegabytes: 500 };
const DELTA_RESULTS = 1_000;

/**
 * A bundle file as the provider's records, made one at a time from its lines, so that millions of
 * results are held as lines, not objects; `changed` holds the records a delta changed.
 */
function fileRecords(
  folder: string,
  name: string,
  version: '1.1' | '1.2',
): RecordList & { changed: Map<number, Json> } {
  let text = '';
  try {
    text = readFileSync(join(folder, `${name}.csv`), 'utf8');
  } catch {
    text = 'sourcedId\r\n';
  }
  const lines = text.split(/\r?\n/).filter((line) => line !== '');
  const header = parse(lines[0]) as string[][];
  const columns = header[0];
  const changed = new Map<number, Json>();
  const recordOf = recordMaker(name, columns, version);
  return {
    changed,
    length: lines.length - 1,
    at: (index) => {
      const own = changed.get(index);
      if (own) return own;
      const line = lines[index + 1];
      const values = line.includes('"') ? (parse(line) as string[][])[0] : line.split(',');
      return recordOf(values);
    },
    modifiedAfter: (since) =>
      [...changed.entries()]
        .filter(([, record]) => Date.parse(String(record.dateLastModified)) > since)
        .map(([index]) => index),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      version: { type: 'string', default: '1.2' },
      'no-build': { type: 'boolean', default: false },
    },
  });
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale is a fraction above 0, at most 1');
  const version = values.version as '1.1' | '1.2';
  if (version !== '1.1' && version !== '1.2') throw new Error('--version is 1.1 or 1.2');
  if (!values['no-build']) buildService();

  const work = mkdtempSync(join(tmpdir(), 'school-sync-bench-'));
  const size = scaledSize(scale);
  let provider: OneRosterProvider | undefined;
  try {
    const bundle = join(work, 'bundle');
    await generateBundle(bundle, size);
    console.log(
      `School: ${size.users} users, ${size.classes} classes, ${size.enrollments} enrollments, ${size.results} results`,
    );
    const imported = await runCli(['import', bundle], { DATA_DIR: join(work, 'imported') });
    console.log(`import: ${imported.output.trim().split('\n').at(-1)}`);

    const lists = new Map(ONEROSTER_FILES.map((name) => [name, fileRecords(bundle, name, version)] as const));
    provider = new OneRosterProvider(lists);
    await provider.start();
    const settings = { ...provider.settings(version), SIS_PAGE_SIZE: '1000', DATA_DIR: join(work, 'synced') };
    const cpuBefore = process.cpuUsage();
    const full = await runCli(['sync'], settings);
    const cpu = process.cpuUsage(cpuBefore);
    // The provider runs in this process, on the same cores: its CPU is time a real SIS would spend elsewhere.
    const providerSeconds = (cpu.user + cpu.system) / 1e6;
    const fullRequests = provider.requests.length;
    console.log(`sync: ${full.output.trim().split('\n').at(-1)}`);

    const results = lists.get('results') as ReturnType<typeof fileRecords>;
    const modified = new Date(Date.now() + 1000).toISOString();
    for (let change = 0; change < Math.min(DELTA_RESULTS, results.length); change += 1) {
      const index = Math.floor((change * results.length) / DELTA_RESULTS);
      const record = results.at(index);
      results.changed.set(index, {
        ...record,
        score: Number(record.score) === 10 ? 9 : 10,
        dateLastModified: modified,
      });
    }
    const delta = await runCli(['sync'], settings);
    console.log(`delta sync: ${delta.output.trim().split('\n').at(-1)}`);
    const deltaRequests = provider.requests.length - fullRequests;

    console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB`);
    console.log(`OneRoster ${version}, SQLite, pages of 1,000, scale ${scale}`);
    console.log('| Run | Time | Peak memory (Pss) | Requests |');
    console.log('|---|---|---|---|');
    console.log(`| CSV import | ${imported.seconds.toFixed(1)} s | ${imported.peakMegabytes.toFixed(0)} MB | - |`);
    const ratio = (full.seconds / imported.seconds).toFixed(2);
    console.log(`The stand-in provider used ${providerSeconds.toFixed(1)} s of CPU during the full sync.`);
    console.log(
      `| Full sync | ${full.seconds.toFixed(1)} s (${ratio}x the import, goal < ${GOALS.fullRatio}x) | ` +
        `${full.peakMegabytes.toFixed(0)} MB (goal < ${GOALS.peakMegabytes}) | ${fullRequests} |`,
    );
    console.log(
      `| Delta of ${DELTA_RESULTS} results | ${delta.seconds.toFixed(2)} s (goal < ${GOALS.deltaSeconds}) | ` +
        `${delta.peakMegabytes.toFixed(0)} MB | ${deltaRequests} |`,
    );
  } finally {
    await provider?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

/**
 * The OneRoster import at the size the issue names: 100,000 users, 3,000 classes, 200,000
 * enrollments and 5,000,000 results, imported with the built school-service command into a new
 * SQLite store and into a new PostgreSQL database, then a delta of 1,000 changed results. It prints
 * the time each took and the import process's peak memory. A benchmark, not a test: it checks nothing.
 *
 *   npm run bench:import                                   both engines, the issue's sizes
 *   npm run bench:import -- --engine sqlite --scale 0.1    a tenth of them, SQLite only
 *   npm run bench:import -- --no-build --keep /tmp/bundle  reuse dist/ and keep the bundle
 *
 * PostgreSQL runs as a throwaway cluster on loopback (the tests' own, with fsync off).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, startTestPostgres, type TestPostgres } from '../test/support/postgres';
import { buildService } from './benchmark/build';
import { type CliRun, runCli } from './benchmark/run-cli';
import { generateBundle, scaledSize, writeResultsDelta } from './benchmark-import/generate-bundle';

const GOALS = { sqliteSeconds: 300, postgresSeconds: 600, peakMegabytes: 500, deltaSeconds: 5 };
const DELTA_RESULTS = 1_000;

/** Runs the built import with the store's settings; its wall time and peak memory (Pss). */
function runImport(args: readonly string[], store: Readonly<Record<string, string>>): Promise<CliRun> {
  return runCli(['import', ...args], store);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'both' },
      scale: { type: 'string', default: '1' },
      'no-build': { type: 'boolean', default: false },
      keep: { type: 'string' },
    },
  });
  const engines = values.engine === 'both' ? ['sqlite', 'postgres'] : [values.engine as string];
  if (!engines.every((engine) => engine === 'sqlite' || engine === 'postgres')) {
    throw new Error('--engine is sqlite, postgres or both');
  }
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale is a fraction above 0, at most 1');
  if (!values['no-build']) buildService();

  const work = mkdtempSync(join(tmpdir(), 'school-import-bench-'));
  const bundle = values.keep ?? join(work, 'bundle');
  const size = scaledSize(scale);
  let postgres: TestPostgres | undefined;
  try {
    let started = Date.now();
    await generateBundle(bundle, size);
    const delta = join(work, 'delta');
    await writeResultsDelta(delta, size, DELTA_RESULTS);
    console.log(
      `Bundle: ${size.users} users, ${size.classes} classes, ${size.enrollments} enrollments, ` +
        `${size.results} results, written in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const rows: string[] = [];
    for (const engine of engines) {
      let store: Record<string, string>;
      if (engine === 'sqlite') {
        store = { DATA_DIR: join(work, 'sqlite') };
      } else {
        postgres ??= await startTestPostgres();
        store = { DATABASE_URL: createDatabase(postgres.url, 'import_bench'), DATA_DIR: join(work, 'pg-data') };
      }
      started = Date.now();
      const bulk = await runImport([bundle], store);
      console.log(`${engine}: ${bulk.output.trim().split('\n').at(-1)}`);
      const changed = await runImport([delta], store);
      console.log(`${engine} delta: ${changed.output.trim().split('\n').at(-1)}`);
      const goal = engine === 'sqlite' ? GOALS.sqliteSeconds : GOALS.postgresSeconds;
      rows.push(
        `| ${engine} | ${bulk.seconds.toFixed(1)} s (goal < ${goal}) | ${bulk.peakMegabytes.toFixed(0)} MB ` +
          `(goal < ${GOALS.peakMegabytes}) | ${changed.seconds.toFixed(2)} s (goal < ${GOALS.deltaSeconds}) |`,
      );
    }
    console.log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB`);
    console.log(`| Engine | Bulk import | Peak memory (Pss) | Delta of ${DELTA_RESULTS} results |`);
    console.log('|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    postgres?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});

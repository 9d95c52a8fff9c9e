/**
 * Fills the configured store (DATA_DIR or DATABASE_URL) with a demo school.
 *
 *   npm run demo-data -- --students 2000 --seed 7 [--year 2026] [--replace]
 *
 * The same seed and year give the same school. A store that already holds a school is left alone
 * unless --replace is given, which deletes the school's data first.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config';
import { academicYearStartOf } from '../src/store/demo/calendar';
import { loadDemoSchool, storeIsEmpty } from '../src/store/demo/load-demo-school';
import { progressBar } from '../src/store/demo/progress-bar';
import { clearSchool } from '../src/store/clear-school';
import { openStore } from '../src/store/open-store';

function positiveInteger(text: string | undefined, name: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new ConfigError(`--${name} must be a positive whole number, got "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      students: { type: 'string' },
      seed: { type: 'string' },
      year: { type: 'string' },
      replace: { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  const students = positiveInteger(values.students, 'students', 500);
  const seed = positiveInteger(values.seed, 'seed', 1);
  const startYear = positiveInteger(values.year, 'year', academicYearStartOf(new Date()));
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory });
  try {
    if (!(await storeIsEmpty(store))) {
      if (!values.replace)
        throw new ConfigError(
          `the store at ${store.location} already holds a school; pass --replace to delete it and load the demo school`,
        );
      await clearSchool(store.db);
    }
    const started = Date.now();
    const summary = await loadDemoSchool(store, {
      students,
      seed,
      startYear,
      onProgress: progressBar(process.stderr, 'students'),
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `Loaded a demo school into ${store.location} in ${seconds} s: ${summary.students} students, ${summary.classes} classes, ${summary.teachers} teachers, ${summary.marks} marks, ${summary.attendance} attendance records (seed ${seed}, year ${startYear}/${startYear + 1}).\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `demo-data: ${error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(error instanceof ConfigError ? 2 : 1);
});

import { counted } from '../lib/counted';
import { clearSchool } from '../store/clear-school';
import { academicYearStartOf } from '../demo/calendar';
import { loadDemoSchool } from '../demo/load-demo-school';
import { storeIsEmpty } from '../store/queries/store-facts';
import { progressBar } from '../demo/progress-bar';
import { withConfiguredStore } from './configured-store';
import { UsageError } from './usage-error';

export interface DemoDataOptions {
  readonly students: number;
  readonly seed: number;
  readonly year: number | undefined;
  readonly replace: boolean;
}

/**
 * Fills the configured store (DATA_DIR or DATABASE_URL) with a demo school. The same seed and
 * year give the same school. A store that already holds a school is left alone unless `replace`,
 * which deletes the school's data first.
 */
export function demoData(options: DemoDataOptions): Promise<void> {
  const startYear = options.year ?? academicYearStartOf(new Date());
  return withConfiguredStore(async (store) => {
    if (!(await storeIsEmpty(store))) {
      if (!options.replace) {
        throw new UsageError(
          `the store at ${store.location} already holds a school; pass --replace to delete it and load the demo school`,
        );
      }
      await clearSchool(store);
    }
    const started = Date.now();
    const summary = await loadDemoSchool(store, {
      students: options.students,
      seed: options.seed,
      startYear,
      onProgress: progressBar(process.stderr, 'students'),
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `Loaded a demo school into ${store.location} in ${seconds} s: ${counted(summary.students, 'student')}, ` +
        `${counted(summary.classes, 'class', 'classes')}, ${counted(summary.teachers, 'teacher')}, ` +
        `${counted(summary.marks, 'mark')}, ${counted(summary.attendance, 'attendance record')} ` +
        `(seed ${options.seed}, year ${startYear}/${startYear + 1}).\n`,
    );
  });
}

import { exportSchool } from '../roster/export-school';
import { progressDisplay } from '../roster/progress';
import { logHeapLimit } from './bounded-heap';
import { withConfiguredStore } from './configured-store';

/** Writes the configured store as a OneRoster 1.1 bundle with the service's own files: a folder, or a .zip. */
export async function exportCommand(path: string): Promise<void> {
  await withConfiguredStore(async (store) => {
    logHeapLimit('export');
    const summary = await exportSchool(store, path, progressDisplay(process.stderr));
    const files = Object.entries(summary.files)
      .map(([file, count]) => `${file} ${count}`)
      .join(', ');
    const { school } = summary;
    const named = school ? ` (${school.name}${school.sourcedId ? `, sourcedId "${school.sourcedId}"` : ''})` : '';
    process.stdout.write(`Exported ${store.location}${named} to ${path}: ${files}.\n`);
  });
}

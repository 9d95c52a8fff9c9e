import { counted } from '../lib/counted';
import { exportSchool, type OneRosterVersion } from '../roster/export-school';
import { progressDisplay } from '../roster/progress';
import { SpreadsheetCells } from '../roster/spreadsheet-cells';
import { logHeapLimit } from './bounded-heap';
import { withConfiguredStore } from './configured-store';

export interface ExportCommandOptions {
  /** Cells a spreadsheet would run are written with a leading ' (import reads them back as they were). */
  readonly forSpreadsheet: boolean;
  /** --oneroster: the binding written, 1.1 (default) or 1.2. */
  readonly oneroster: OneRosterVersion;
}

/**
 * Writes the configured store as a OneRoster 1.1 (or, with --oneroster 1.2, 1.2) bundle with the
 * service's own files: a folder, or a .zip. Cells a spreadsheet would run as formulas are written
 * exactly and listed on stderr, or neutralised with --for-spreadsheet.
 */
export async function exportCommand(path: string, options: ExportCommandOptions): Promise<void> {
  await withConfiguredStore(
    async (store) => {
      logHeapLimit('export');
      const cells = new SpreadsheetCells(options.forSpreadsheet, (line) => process.stderr.write(`warning: ${line}\n`));
      const summary = await exportSchool(store, path, progressDisplay(process.stderr), cells, options.oneroster);
      const cellSummary = cells.summary();
      if (cellSummary) process.stderr.write(`${cellSummary}\n`);
      const files = Object.entries(summary.files)
        .filter(([, count]) => count > 0)
        .map(([file, count]) => `${file} ${counted(count, 'row')}`)
        .join(', ');
      const { school } = summary;
      const named = school ? ` (${school.name}${school.sourcedId ? `, sourcedId "${school.sourcedId}"` : ''})` : '';
      process.stdout.write(`Exported ${store.location}${named} to ${path}: ${files}.\n`);
    },
    { mustExist: true },
  );
}

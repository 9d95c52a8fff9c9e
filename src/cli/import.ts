import { escapeControlCharacters } from '../lib/control-characters';
import { importSchool } from '../roster/import-school';
import { progressDisplay } from '../roster/progress';
import type { ImportMode } from '../roster/roster-book';
import { logHeapLimit } from './bounded-heap';
import { withConfiguredStore } from './configured-store';
import { EXIT_NOTHING_WRITTEN } from './import-exit-codes';
import { reportImport } from './import-report';
import { UsageError } from './usage-error';

export interface ImportCommandOptions {
  readonly dryRun: boolean;
  readonly mode: string | undefined;
  readonly skipInvalid: boolean;
  readonly strict?: boolean;
  readonly school?: string;
  readonly replace?: boolean;
  readonly ids: string;
}

export { EXIT_DONE, EXIT_NOTHING_WRITTEN, EXIT_ROWS_SKIPPED } from './import-exit-codes';

export async function importCommand(path: string, options: ImportCommandOptions): Promise<void> {
  if (options.mode !== undefined && options.mode !== 'bulk' && options.mode !== 'delta') {
    throw new UsageError('--mode is bulk or delta');
  }
  if (options.ids !== 'assigned' && options.ids !== 'from-identifier') {
    throw new UsageError('--ids is assigned or from-identifier');
  }
  // A dry run makes no store where there is none: it reads the bundle against an empty one.
  const onStore: typeof withConfiguredStore<number> = (work) =>
    withConfiguredStore(work, { createsNothing: options.dryRun });
  try {
    process.exitCode = await onStore(async (store, config, where) => {
      logHeapLimit('import');
      const outcome = await importSchool(store, {
        path,
        mode: options.mode as ImportMode | undefined,
        dryRun: options.dryRun,
        skipInvalid: options.skipInvalid,
        strict: options.strict ?? false,
        school: options.school,
        replace: options.replace ?? false,
        fromIdentifier: options.ids === 'from-identifier',
        defaultCountryCode: config.notifications.defaultCountryCode,
        progress: progressDisplay(process.stderr),
        limits: { maxBytes: config.imports.maxBytes, deadline: Date.now() + config.imports.timeLimitMs, now: Date.now },
      });
      return reportImport(outcome, options, where.location);
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`school-service: import failed, nothing was written: ${escapeControlCharacters(message)}\n`);
    process.exitCode = EXIT_NOTHING_WRITTEN;
  }
}

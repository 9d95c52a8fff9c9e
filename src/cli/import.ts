import { escapeControlCharacters } from '../lib/control-characters';
import { counted } from '../lib/counted';
import { type Change, importSchool } from '../roster/import-school';
import { formatNote, formatProblem, formatWarning, type Problems } from '../roster/problems';
import { progressDisplay } from '../roster/progress';
import type { ImportMode } from '../roster/roster-book';
import type { SchoolTableName } from '../store/roster/school-tables';
import { logHeapLimit } from './bounded-heap';
import { withConfiguredStore } from './configured-store';
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

/** Exit codes: 0 written (or, dry, would be) whole; 1 written with rows left out; 2 nothing written. */
export const EXIT_DONE = 0;
export const EXIT_ROWS_SKIPPED = 1;
export const EXIT_NOTHING_WRITTEN = 2;

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
      for (const note of outcome.problems.notes()) process.stderr.write(`${formatNote(note)}\n`);
      const { warnings, notKept: warningsNotKept } = outcome.problems.warnings();
      for (const warning of warnings) process.stderr.write(`${formatWarning(warning)}\n`);
      if (warningsNotKept > 0) process.stderr.write(`... and ${counted(warningsNotKept, 'more warning')}\n`);
      const { problems, notKept } = outcome.problems.list();
      for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
      if (notKept > 0) process.stderr.write(`... and ${counted(notKept, 'more problem')}\n`);
      const tally = `${counted(outcome.rows, 'row')}, ${tallyOf(outcome.problems)}`;
      if (outcome.schools) {
        process.stdout.write(
          `Nothing was written: the bundle holds ${outcome.schools.length} schools; choose one with ` +
            '--school SOURCEDID (or IMPORT_SCHOOL):\n' +
            outcome.schools
              .map((school) => {
                const identifier = school.identifier ? ` (identifier ${school.identifier})` : '';
                return `  --school ${school.sourcedId}  ${school.name}${identifier}\n`;
              })
              .join(''),
        );
        return EXIT_NOTHING_WRITTEN;
      }
      // Tables a delta only deletes from are listed too, with 0 records of the bundle.
      const counts = Object.entries({ ...outcome.changes, ...outcome.counts })
        .map((entry) => [entry[0], outcome.counts[entry[0] as SchoolTableName] ?? 0] as const)
        .map(([table, count]) => {
          const change = changeOf(outcome.changes?.[table as SchoolTableName]);
          return `${count.toLocaleString('en-US')} ${table.replace(/_/g, ' ')}${change}`;
        })
        .join(', ');
      if (outcome.replaces) {
        const { name, sourcedId, counts: held } = outcome.replaces;
        const removed = [...held]
          .filter(([, count]) => count > 0)
          .map(([table, count]) => `${count.toLocaleString('en-US')} ${table.replace(/_/g, ' ')}`)
          .join(', ');
        process.stdout.write(
          `Nothing was written: the store holds another school, ${name} ` +
            `(${sourcedId === null ? 'the demo school or one no import brought' : `sourcedId "${sourcedId}"`}). ` +
            `A bulk import replaces it, removing ${removed}. Give --replace to replace it; ${tally}.\n`,
        );
        return EXIT_NOTHING_WRITTEN;
      }
      const skipped = outcome.problems.rowCount;
      const verb = options.dryRun ? 'would import' : 'imported';
      if (!outcome.written && (!options.dryRun || (skipped > 0 && !options.skipInvalid) || outcome.problems.hasFatal)) {
        process.stdout.write(
          `Nothing was written: ${counted(outcome.problems.count, 'problem')} in ${counted(skipped, 'row')}` +
            `${options.skipInvalid || outcome.problems.hasFatal ? '' : ' (--skip-invalid leaves bad rows out)'}; ` +
            `${tally}.\n`,
        );
        printUnskippable(outcome.problems);
        return EXIT_NOTHING_WRITTEN;
      }
      const into = options.dryRun ? `a dry run into ${where.location}` : where.location;
      process.stdout.write(`${outcome.mode} import ${verb} (${into}): ${counts || 'no records'}; ${tally}.\n`);
      if (skipped > 0) {
        process.stdout.write(
          `${counted(skipped, 'row')} ${skipped === 1 ? 'was' : 'were'} left out (listed above) ` +
            'with the rows that depend on them.\n',
        );
        return EXIT_ROWS_SKIPPED;
      }
      return EXIT_DONE;
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`school-service: import failed, nothing was written: ${escapeControlCharacters(message)}\n`);
    process.exitCode = EXIT_NOTHING_WRITTEN;
  }
}

/** What --skip-invalid cannot leave out, and why: problems that are no row of a file. */
function printUnskippable(problems: Problems): void {
  const unskippable = problems.unskippable();
  if (unskippable.length === 0) return;
  const count = counted(unskippable.length, 'problem');
  process.stdout.write(`--skip-invalid cannot leave out ${count} (each stops the whole import):\n`);
  for (const { problem, reason } of unskippable) {
    const { file, line, column, rule } = problem;
    process.stdout.write(`  ${escapeControlCharacters(`${file}:${line}:${column}: ${rule}: ${reason}`)}\n`);
  }
}

/** The summary's count of what was said: warnings and problems (rows read come before it). */
function tallyOf(problems: Problems): string {
  return `${counted(problems.warningCount, 'warning')}, ${counted(problems.count, 'problem')}`;
}

/** " (3 added, 9 changed, 1 deleted)", the parts that are not zero. */
function changeOf(change: Change | undefined): string {
  if (!change) return '';
  const parts = (['added', 'changed', 'deleted'] as const)
    .filter((part) => change[part] > 0)
    .map((part) => `${change[part].toLocaleString('en-US')} ${part}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

import { escapeControlCharacters } from '../lib/control-characters';
import { counted } from '../lib/counted';
import type { Change, ImportOutcome } from '../roster/import-school';
import { formatNote, formatProblem, formatWarning, type Problems } from '../roster/problems';
import type { SchoolTableName } from '../store/roster/school-tables';
import { EXIT_DONE, EXIT_NOTHING_WRITTEN, EXIT_ROWS_SKIPPED } from './import-exit-codes';

/** What the import was asked to do, as far as its report says. */
interface ReportedOptions {
  readonly dryRun: boolean;
  readonly skipInvalid: boolean;
}

/**
 * The import's report to the operator: what was said on standard error (notes, warnings and
 * problems), the summary on standard output, and the exit code it comes to.
 */
export function reportImport(outcome: ImportOutcome, options: ReportedOptions, location: string): number {
  printSaid(outcome.problems);
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
  if (!outcome.written && (!options.dryRun || (skipped > 0 && !options.skipInvalid) || outcome.problems.hasFatal)) {
    process.stdout.write(
      `Nothing was written: ${counted(outcome.problems.count, 'problem')} in ${counted(skipped, 'row')}` +
        `${options.skipInvalid || outcome.problems.hasFatal ? '' : ' (--skip-invalid leaves bad rows out)'}; ` +
        `${tally}.\n`,
    );
    printUnskippable(outcome.problems);
    return EXIT_NOTHING_WRITTEN;
  }
  const verb = options.dryRun ? 'would import' : 'imported';
  const into = options.dryRun ? `a dry run into ${location}` : location;
  process.stdout.write(`${outcome.mode} import ${verb} (${into}): ${countsOf(outcome) || 'no records'}; ${tally}.\n`);
  if (skipped > 0) {
    process.stdout.write(
      `${counted(skipped, 'row')} ${skipped === 1 ? 'was' : 'were'} left out (listed above) ` +
        'with the rows that depend on them.\n',
    );
    return EXIT_ROWS_SKIPPED;
  }
  return EXIT_DONE;
}

/** The notes, warnings and problems, on standard error, and how many of each were not kept. */
function printSaid(said: Problems): void {
  for (const note of said.notes()) process.stderr.write(`${formatNote(note)}\n`);
  const { warnings, notKept: warningsNotKept } = said.warnings();
  for (const warning of warnings) process.stderr.write(`${formatWarning(warning)}\n`);
  if (warningsNotKept > 0) process.stderr.write(`... and ${counted(warningsNotKept, 'more warning')}\n`);
  const { problems, notKept } = said.list();
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  if (notKept > 0) process.stderr.write(`... and ${counted(notKept, 'more problem')}\n`);
}

/** "1,200 students (3 added), ...": each table's records in the bundle and what changed. */
function countsOf(outcome: ImportOutcome): string {
  // Tables a delta only deletes from are listed too, with 0 records of the bundle.
  return Object.entries({ ...outcome.changes, ...outcome.counts })
    .map((entry) => [entry[0], outcome.counts[entry[0] as SchoolTableName] ?? 0] as const)
    .map(([table, count]) => {
      const change = changeOf(outcome.changes?.[table as SchoolTableName]);
      return `${count.toLocaleString('en-US')} ${table.replace(/_/g, ' ')}${change}`;
    })
    .join(', ');
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

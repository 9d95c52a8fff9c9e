#!/usr/bin/env node
// First of all, before the modules below load: a password on the command line leaves `ps` at once.
import './cli/hide-passwords';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { applyEnvironmentFile } from './config/env-file';
import { ConfigError } from './config/readers';
import { isSettingToFix } from './store/store-errors';
import { auditCommand } from './cli/audit';
import { backupCommand } from './cli/backup';
import { copyStoreCommand } from './cli/copy-store';
import { restoreCommand } from './cli/restore';
import { registerCallersCommand } from './cli/callers';
import { actsOnSchool, schoolOfOrg, schoolOption, useRegisteredSchool, useSchoolStore } from './cli/school-option';
import { registerSchoolsCommand } from './cli/schools';
import { demoData } from './cli/demo-data';
import { type ExportCommandOptions, exportCommand } from './cli/export';
import { importCommand } from './cli/import';
import { type AllSchoolsOptions, importAllSchools } from './cli/import-all-schools';
import { deliveryStatus } from './cli/delivery-status';
import { deliveryWorker } from './cli/delivery-worker';
import { routesCommand, shadowReportCommand } from './cli/migration';
import { type ReplayOptions, replayCommand } from './cli/replay';
import { serve } from './cli/serve';
import { registerSubjectCommand } from './cli/subject';
import { retentionCommand } from './cli/retention';
import { type SyncCommandOptions, syncCommand } from './cli/sync';
import { UsageError } from './cli/usage-error';
import { ranWithBoundedHeap } from './cli/bounded-heap';
import { serviceVersion } from './lib/package-info';
import { keepFilesPrivate } from './lib/private-files';

/**
 * school-service: the operator's command. Every subcommand reads the same settings as the service
 * (DATA_DIR or DATABASE_URL, ...) from the environment, or from the unit's settings file named by
 * --env or SCHOOL_SERVICE_ENV. Exit codes: 0 done, 1 failed, 2 wrong usage or settings.
 */

function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('a positive whole number is needed.');
  return Number(text);
}

keepFilesPrivate();

const program = new Command('school-service')
  .description('The school-information web service and its operator commands.')
  .version(serviceVersion())
  .option('--env <file>', "read the settings from this file (the unit's EnvironmentFile; default: $SCHOOL_SERVICE_ENV)")
  .exitOverride()
  .showHelpAfterError()
  .hook('preAction', () =>
    applyEnvironmentFile(program.opts<{ env?: string }>().env ?? process.env.SCHOOL_SERVICE_ENV),
  );

program
  .command('serve')
  .description('start the service (as npm start does); settings come from the environment')
  .option('--record <file>', 'append the calls let in to FILE, one JSON line each, for replay (RECORD_FILE)')
  .option('--record-loopback', "record this machine's calls too (RECORD_LOOPBACK=on)", false)
  .action((options: { record?: string; recordLoopback: boolean }) => {
    // Passed as settings, so that workers (which read the environment) record as well.
    if (options.record !== undefined) process.env.RECORD_FILE = options.record;
    if (options.recordLoopback) process.env.RECORD_LOOPBACK = 'on';
    return serve();
  });

program
  .command('demo-data')
  .description('fill the configured store with a demo school')
  .option('--students <count>', 'how many students', positiveInteger, 500)
  .option('--seed <number>', 'the random seed: the same seed and year give the same school', positiveInteger, 1)
  .option('--year <year>', 'the year the first academic year starts in (default: the current one)', positiveInteger)
  .option('--replace', 'delete the school already in the store first', false)
  .action((options: { students: number; seed: number; year?: number; replace: boolean }) =>
    demoData({ ...options, year: options.year }),
  );

program
  .command('delivery-status')
  .description('count the outbox messages by state')
  .option('--json', 'print the counts as JSON', false)
  .action(deliveryStatus);

program
  .command('delivery-worker')
  .description('deliver the outbox from this process (start the service with DELIVERY_WORKER=off)')
  .action(deliveryWorker);

registerCallersCommand(program);
registerSchoolsCommand(program);

actsOnSchool(program.command('audit'))
  .description("who saw a student's records, or what a caller saw, newest first")
  .option('--student <id>', 'the student', positiveInteger)
  .option('--caller <name>', 'the caller')
  .option('--since <date>', 'only calls since then')
  .option('--limit <count>', 'at most this many calls', positiveInteger, 1000)
  .option('--json', 'print them as JSON', false)
  .option('--all-schools', "every school's trail of the deployment in one listing, each entry naming its school", false)
  .action(auditCommand);

registerSubjectCommand(program, positiveInteger);

actsOnSchool(program.command('retention'))
  .description('erase the students who left RETENTION_AFTER_LEAVING_DAYS days ago or more (as the service does daily)')
  .option('--dry-run', 'list them (by id, and the day they left), erasing nothing', false)
  .action(retentionCommand);

program
  .command('import <path>')
  .description("load a school from a OneRoster 1.1 bundle (a folder or .zip) and the service's own files")
  .option('--dry-run', 'check everything and report, writing nothing', false)
  .option('--mode <mode>', 'bulk (replace the school) or delta (apply changes); default: as the manifest says')
  .option('--skip-invalid', 'leave out bad rows and the rows that depend on them, and write the rest', false)
  .option('--strict', 'count warnings (what the import inferred or read past) as problems', false)
  .addOption(
    new Option(
      '--school <sourcedId>',
      "the school to import from a bundle of several (into that school's store when the deployment lists it)",
    ).env('IMPORT_SCHOOL'),
  )
  .option('--replace', "let a bulk import replace a school of the store that is not the bundle's", false)
  .option('--ids <how>', "assigned, or from-identifier: a user's integer identifier becomes its id", 'assigned')
  .option(
    '--all-schools',
    "import each school of a district bundle the deployment lists into that school's store",
    false,
  )
  .option(
    '--add-schools',
    "with --all-schools: register the bundle's schools the deployment does not list first",
    false,
  )
  .action(async (path: string, options: AllSchoolsOptions & { allSchools: boolean }) => {
    if (options.addSchools && !options.allSchools) throw new UsageError('--add-schools goes with --all-schools');
    if (options.allSchools) return importAllSchools(path, options);
    if (await ranWithBoundedHeap()) return;
    // A school the deployment lists is imported into its own store; any other keeps its meaning of a bundle's org.
    const school = schoolOfOrg(options.school);
    if (school) useSchoolStore(school);
    await importCommand(path, school ? { ...options, school: school.sourcedId } : options);
  });

program
  .command('sync')
  .description('pull the school from its SIS over OneRoster REST (SIS_URL) and apply it as import does')
  .option('--dry-run', 'read everything and report what would change, writing nothing', false)
  .option('--full', 'read the whole school, not only what changed since the last sync', false)
  .option('--skip-invalid', 'leave out bad records and the records that depend on them, and write the rest', false)
  .option('--strict', 'count warnings as problems', false)
  .option('--ids <how>', "assigned, or from-identifier: a user's integer identifier becomes its id", 'assigned')
  .option(
    '--school <sourcedId>',
    "a school of the deployment's (its store and SIS settings), or else the school's sourcedId when the SIS " +
      'serves several (SIS_SCHOOL)',
  )
  .action(async (options: SyncCommandOptions) => {
    if (await ranWithBoundedHeap()) return;
    // A registered school syncs as the service syncs it: its store, its own SIS settings (SIS_SCHOOL among them).
    const school = schoolOfOrg(options.school);
    if (school) useSchoolStore(school);
    await syncCommand(school ? { ...options, school: undefined } : options);
  });

program
  .command('export <path>')
  .description(
    "write the school as a OneRoster bundle (1.1; 1.2 with --oneroster 1.2) with the service's own files " +
      '(a folder, or a .zip)',
  )
  .option(
    '--for-spreadsheet',
    "write cells a spreadsheet would run as formulas with a leading ' (import reads them back)",
    false,
  )
  .addOption(
    new Option('--oneroster <version>', 'the OneRoster CSV binding to write').choices(['1.1', '1.2']).default('1.1'),
  )
  .addOption(schoolOption())
  .action(async (path: string, options: ExportCommandOptions & { school?: string }) => {
    if (await ranWithBoundedHeap()) return;
    useRegisteredSchool(options.school);
    await exportCommand(path, options);
  });

actsOnSchool(program.command('backup <path>'))
  .description('back up the store into a new file while the service serves (SQLite online backup, or pg_dump)')
  .action(backupCommand);

actsOnSchool(program.command('copy-store'))
  .description('copy everything of the configured store (callers, audit trail, outbox included) into an empty one')
  .option('--to <url>', 'the empty store: postgres://user@host:port/database or sqlite:FOLDER')
  .option('--to-file <file>', "a file holding --to's URL (with a password, better than the command line)")
  .action(copyStoreCommand);

actsOnSchool(program.command('restore <backup>'))
  .description('restore a backup made by `backup` into the configured store, which must be empty')
  .option('--replace', 'replace what the configured store holds', false)
  .action(restoreCommand);

actsOnSchool(program.command('routes'))
  .description('print who answers each operation: local, legacy, shadow or canary (LEGACY_URL, ROUTES)')
  .option('--json', 'print the table as JSON', false)
  .action(routesCommand);

actsOnSchool(program.command('shadow-report'))
  .description("how this service's answers compared with the legacy service's, per operation and binding")
  .option('--since <date>', 'only the days since then, YYYY-MM-DD')
  .option('--operation <name>', 'only this operation')
  .option('--json', 'print the report as JSON', false)
  .action(shadowReportCommand);

program
  .command('replay <file>')
  .description('send recorded calls (serve --record) to this service and to another, and report how they compare')
  .requiredOption('--against <url>', 'the base URL of the other service (the legacy one, or another build)')
  .option('--service <url>', "this service's base URL (default: http://127.0.0.1:PORT)")
  .option('--json', 'print the report as JSON', false)
  .action((file: string, options: ReplayOptions) => replayCommand(file, options));

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  const usage = error instanceof ConfigError || error instanceof UsageError || isSettingToFix(error);
  process.stderr.write(`school-service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(usage ? 2 : 1);
});

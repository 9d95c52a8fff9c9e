#!/usr/bin/env node
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from './config/readers';
import { GRANTABLE_GROUPS } from './access/operation-groups';
import { auditCommand } from './cli/audit';
import { backupCommand } from './cli/backup';
import { addCommand, listCommand, revokeCommand, rotateCommand } from './cli/callers';
import { demoData } from './cli/demo-data';
import { exportCommand } from './cli/export';
import { type ImportCommandOptions, importCommand } from './cli/import';
import { deliveryStatus } from './cli/delivery-status';
import { deliveryWorker } from './cli/delivery-worker';
import { serve } from './cli/serve';
import { UsageError } from './cli/usage-error';
import { ranWithBoundedHeap } from './cli/bounded-heap';
import { serviceVersion } from './lib/package-info';

/**
 * school-service: the operator's command. Every subcommand reads the same settings as the service
 * (DATA_DIR or DATABASE_URL, ...) from the environment. Exit codes: 0 done, 1 failed, 2 wrong
 * usage or settings.
 */

function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('a positive whole number is needed.');
  return Number(text);
}

const program = new Command('school-service')
  .description('The school-information web service and its operator commands.')
  .version(serviceVersion())
  .exitOverride()
  .showHelpAfterError();

program
  .command('serve')
  .description('start the service (as npm start does); settings come from the environment')
  .action(serve);

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

const callers = program.command('callers').description('the callers the service lets in beyond local ones');

callers
  .command('add <name>')
  .description('let a caller in, recognised by its network, its secret, or both')
  .option('--network <cidr...>', 'networks it calls from (10.1.2.0/24, 2001:db8::/48, an address)', [])
  .option('--secret', 'give it a secret for HTTP Basic, a bearer token or a WS-Security UsernameToken', false)
  .option('--ws-digest', 'a secret it can also send as a WS-Security PasswordDigest (kept sealed as well)', false)
  .option('--operations <list>', `operations and groups it may call (${GRANTABLE_GROUPS.join(', ')})`, 'queries')
  .option('--scope <scope>', 'what it may see: school, teacher:ID, guardian:ID or student:ID', 'school')
  .option('--expires <date>', 'when it stops being let in')
  .action(addCommand);

callers
  .command('list')
  .description('list the callers, with nothing of their secrets')
  .option('--json', 'print them as JSON', false)
  .action(listCommand);

callers.command('revoke <name>').description('stop letting a caller in').action(revokeCommand);
callers.command('rotate <name>').description("replace a caller's secret").action(rotateCommand);

program
  .command('audit')
  .description("who saw a student's records, or what a caller saw, newest first")
  .option('--student <id>', 'the student', positiveInteger)
  .option('--caller <name>', 'the caller')
  .option('--since <date>', 'only calls since then')
  .option('--limit <count>', 'at most this many calls', positiveInteger, 1000)
  .option('--json', 'print them as JSON', false)
  .action(auditCommand);

program
  .command('import <path>')
  .description("load a school from a OneRoster 1.1 bundle (a folder or .zip) and the service's own files")
  .option('--dry-run', 'check everything and report, writing nothing', false)
  .option('--mode <mode>', 'bulk (replace the school) or delta (apply changes); default: as the manifest says')
  .option('--skip-invalid', 'leave out bad rows and the rows that depend on them, and write the rest', false)
  .option('--strict', 'count warnings (what the import inferred or read past) as problems', false)
  .addOption(new Option('--school <sourcedId>', 'the school to import from a bundle of several').env('IMPORT_SCHOOL'))
  .option('--replace', "let a bulk import replace a school of the store that is not the bundle's", false)
  .option('--ids <how>', "assigned, or from-identifier: a user's integer identifier becomes its id", 'assigned')
  .action(async (path: string, options: ImportCommandOptions) => {
    if (!(await ranWithBoundedHeap())) await importCommand(path, options);
  });

program
  .command('export <path>')
  .description("write the school as a OneRoster 1.1 bundle with the service's own files (a folder, or a .zip)")
  .action(async (path: string) => {
    if (!(await ranWithBoundedHeap())) await exportCommand(path);
  });

program
  .command('backup <path>')
  .description('back up the store into a new file while the service serves (SQLite online backup, or pg_dump)')
  .action(backupCommand);

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  const usage = error instanceof ConfigError || error instanceof UsageError;
  process.stderr.write(`school-service: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(usage ? 2 : 1);
});

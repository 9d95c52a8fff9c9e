import { counted } from '../lib/counted';
import { type Command, InvalidArgumentError } from 'commander';
import {
  AdminError,
  addCaller,
  type CallerChanges,
  type CallerListing,
  listCallers,
  revokeCaller,
  rotateSecret,
  updateCaller,
} from '../access/caller-admin';
import { GRANTABLE_GROUPS } from '../contract/operation-policies';
import { DurationError, formatDuration, parseDuration } from '../lib/durations';
import { formatLocalMoment } from '../lib/local-time';
import { digestSealerOf, withConfiguredStore } from './configured-store';
import { actsOnSchool } from './school-option';
import { UsageError } from './usage-error';

/** school-service callers add|update|list|revoke|rotate: the callers the service lets in. */

/** Callers are administered in the service's own store, never in one made on the way. */
const EXISTING = { mustExist: true } as const;

export interface AddOptions {
  readonly network: string[];
  readonly secret: boolean;
  readonly wsDigest: boolean;
  readonly operations: string;
  readonly scope: string;
  readonly expires: string | undefined;
  readonly allSchools: boolean;
}

export interface UpdateOptions {
  readonly network?: string[];
  readonly anyNetwork?: boolean;
  readonly operations?: string;
  readonly scope?: string;
  readonly expires?: string;
}

/** The longest grace a rotation gives the old secret: long enough to change every client, short enough to end. */
const MAX_GRACE_MS = 90 * 86_400_000;

const EXPIRES_HELP =
  "when it stops being let in: a date-time (2027-06-30T18:00, in the service's time zone unless it ends in Z or " +
  "an offset such as +03:00), or a date alone (2027-06-30), meaning the end of that day in the service's time " +
  "zone (TZ, else the machine's)";

/** Runs an admin action, its mistakes reported as wrong usage (exit code 2). */
async function asUsage<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof AdminError) throw new UsageError(error.message);
    throw error;
  }
}

function printWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

function printSecret(name: string, secret: string, sealedToo: boolean): void {
  const kept = sealedToo ? 'a hash of it, and a copy sealed with its key for WS-Security digests' : 'only a hash of it';
  process.stdout.write(
    `Secret of ${name} (shown this once; the service keeps ${kept}):\n  ${secret}\n` +
      `Send it as the password of HTTP Basic or of a WS-Security UsernameToken with the user name ${name}, ` +
      'or as a bearer token on JSON.\n',
  );
}

/** --all-schools with --school (or SCHOOL): a district caller is the deployment's, never one school's. */
function checkAllSchools(options: AddOptions, command: Command | undefined): void {
  const school = command?.parent?.opts<{ school?: string }>().school;
  if (options.allSchools && school !== undefined && school !== '') {
    throw new UsageError("--all-schools makes a caller of the deployment's own store: leave out --school (and SCHOOL)");
  }
}

export async function addCommand(name: string, options: AddOptions, command?: Command): Promise<void> {
  checkAllSchools(options, command);
  return withConfiguredStore(async (store, config) => {
    const sealer = await digestSealerOf(store, config);
    const { secret, warnings } = await asUsage(() =>
      addCaller(
        store,
        {
          name,
          networks: options.network,
          secret: options.secret,
          wsDigest: options.wsDigest,
          operations: [options.operations],
          scope: options.scope,
          expires: options.expires,
          allSchools: options.allSchools,
        },
        sealer,
        new Date(),
      ),
    );
    const who = options.allSchools ? 'at every school of the deployment' : 'on this store';
    process.stdout.write(`Added caller ${name}; the services ${who} let it in within seconds.\n`);
    printWarnings(warnings);
    if (secret !== undefined) printSecret(name, secret, options.wsDigest);
  }, EXISTING);
}

export function updateCommand(name: string, options: UpdateOptions): Promise<void> {
  return withConfiguredStore(async (store) => {
    if (options.anyNetwork && options.network !== undefined) {
      throw new UsageError('give --network or --any-network, not both');
    }
    const changes: CallerChanges = {
      networks: options.anyNetwork ? [] : options.network,
      operations: options.operations === undefined ? undefined : [options.operations],
      scope: options.scope,
      expires: options.expires === 'never' ? null : options.expires,
    };
    const { warnings } = await asUsage(() => updateCaller(store, name, changes, new Date()));
    process.stdout.write(`Changed caller ${name}; running services apply it within seconds.\n`);
    printWarnings(warnings);
  }, EXISTING);
}

/** An instant of the store, shown in the service's time zone. */
function local(iso: string): string {
  return formatLocalMoment(new Date(iso));
}

function listingLine(caller: CallerListing): string {
  const networks = caller.networks.length > 0 ? caller.networks.join(',') : '-';
  return [
    caller.name,
    caller.state,
    `networks ${networks}`,
    `credential ${caller.credential}`,
    ...(caller.previousSecretUntil === null ? [] : [`previous secret until ${local(caller.previousSecretUntil)}`]),
    `operations ${caller.operations.join(',')}`,
    `scope ${caller.scope}`,
    `expires ${caller.expires === null ? 'never' : local(caller.expires)}`,
    ...(caller.allSchools ? ['all schools'] : []),
  ].join('  ');
}

export function listCommand(options: { readonly json: boolean }): Promise<void> {
  return withConfiguredStore(async (store, config) => {
    const callers = await listCallers(store, new Date(), config.access.revokedKeepDays);
    if (options.json) process.stdout.write(`${JSON.stringify(callers)}\n`);
    else if (callers.length === 0) process.stdout.write('No callers: only local callers may call beyond HelloWorld.\n');
    else process.stdout.write(`${callers.map(listingLine).join('\n')}\n`);
  }, EXISTING);
}

export function revokeCommand(name: string): Promise<void> {
  return withConfiguredStore(async (store, config) => {
    await asUsage(() => revokeCaller(store, name, new Date()));
    process.stdout.write(
      `Revoked ${name}; running services refuse it within seconds. ` +
        `It stays in the list for ${counted(config.access.revokedKeepDays, 'day')} (ACCESS_REVOKED_KEEP_DAYS).\n`,
    );
  }, EXISTING);
}

export function rotateCommand(name: string, options: { readonly grace: number }): Promise<void> {
  return withConfiguredStore(async (store, config) => {
    const sealer = await digestSealerOf(store, config);
    const { secret, sealedToo, previousUntil } = await asUsage(() =>
      rotateSecret(store, name, sealer, new Date(), options.grace),
    );
    printSecret(name, secret, sealedToo);
    process.stdout.write(
      options.grace === 0
        ? 'The previous secret stops working within seconds.\n'
        : `The previous secret keeps working for ${formatDuration(options.grace)}, ` +
            `until ${local(previousUntil)}: change the clients before then.\n`,
    );
  }, EXISTING);
}

/** A span of time as an option's value: 30m, 24h, 7d. */
function grace(text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    if (error instanceof DurationError) throw new InvalidArgumentError(error.message);
    throw error;
  }
  if (ms > MAX_GRACE_MS) throw new InvalidArgumentError(`at most ${formatDuration(MAX_GRACE_MS)}.`);
  return ms;
}

/** Adds `callers` and its subcommands to the program. */
export function registerCallersCommand(program: Command): void {
  const callers = actsOnSchool(
    program.command('callers').description('the callers the service lets in beyond local ones'),
  );

  callers
    .command('add <name>')
    .description('let a caller in, recognised by its network, its secret, or both')
    .option('--network <cidr...>', 'networks it calls from (10.1.2.0/24, 2001:db8::/48, an address)', [])
    .option('--secret', 'give it a secret for HTTP Basic, a bearer token or a WS-Security UsernameToken', false)
    .option('--ws-digest', 'a secret it can also send as a WS-Security PasswordDigest (kept sealed as well)', false)
    .option('--operations <list>', `operations and groups it may call (${GRANTABLE_GROUPS.join(', ')})`, 'queries')
    .option('--scope <scope>', 'what it may see: school, teacher:ID, guardian:ID or student:ID', 'school')
    .option('--expires <when>', EXPIRES_HELP)
    .option('--all-schools', 'a district caller: let in at every school of the deployment (scope school)', false)
    .action(addCommand);

  callers
    .command('update <name>')
    .description("change a caller's networks, operations, scope or expiry (its secret stays)")
    .option('--network <cidr...>', 'the networks it calls from, replacing those it had')
    .option('--any-network', 'no networks: recognised by its secret alone, from anywhere')
    .option('--operations <list>', `operations and groups it may call, replacing them (${GRANTABLE_GROUPS.join(', ')})`)
    .option('--scope <scope>', 'what it may see: school, teacher:ID, guardian:ID or student:ID')
    .option('--expires <when>', `${EXPIRES_HELP}; or never`)
    .action(updateCommand);

  callers
    .command('list')
    .description(
      'list the callers, with nothing of their secrets; revoked ones leave it after ACCESS_REVOKED_KEEP_DAYS (30)',
    )
    .option('--json', 'print them as JSON', false)
    .action(listCommand);

  callers.command('revoke <name>').description('stop letting a caller in').action(revokeCommand);
  callers
    .command('rotate <name>')
    .description("replace a caller's secret, the old one let in for --grace more")
    .option(
      '--grace <span>',
      'how long the old secret keeps working, so clients can change one by one (30m, 24h, 7d; at most 90d)',
      grace,
      0,
    )
    .action(rotateCommand);
}

import {
  AdminError,
  addCaller,
  type CallerListing,
  listCallers,
  revokeCaller,
  rotateSecret,
} from '../access/caller-admin';
import { digestSealerOf, withConfiguredStore } from './configured-store';
import { UsageError } from './usage-error';

/** school-service callers add|list|revoke|rotate: the callers the service lets in. */

/** Callers are administered in the service's own store, never in one made on the way. */
const EXISTING = { mustExist: true } as const;

export interface AddOptions {
  readonly network: string[];
  readonly secret: boolean;
  readonly wsDigest: boolean;
  readonly operations: string;
  readonly scope: string;
  readonly expires: string | undefined;
}

/** Runs an admin action, its mistakes reported as wrong usage (exit code 2). */
async function asUsage<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof AdminError) throw new UsageError(error.message);
    throw error;
  }
}

function printSecret(name: string, secret: string, sealedToo: boolean): void {
  const kept = sealedToo ? 'a hash of it, and a copy sealed with its key for WS-Security digests' : 'only a hash of it';
  process.stdout.write(
    `Secret of ${name} (shown this once; the service keeps ${kept}):\n  ${secret}\n` +
      `Send it as the password of HTTP Basic or of a WS-Security UsernameToken with the user name ${name}, ` +
      'or as a bearer token on JSON.\n',
  );
}

export function addCommand(name: string, options: AddOptions): Promise<void> {
  return withConfiguredStore(async (store, config) => {
    const sealer = await digestSealerOf(store, config);
    const { secret } = await asUsage(() =>
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
        },
        sealer,
        new Date(),
      ),
    );
    process.stdout.write(`Added caller ${name}; the services on this store let it in within seconds.\n`);
    if (secret !== undefined) printSecret(name, secret, options.wsDigest);
  }, EXISTING);
}

function listingLine(caller: CallerListing): string {
  const networks = caller.networks.length > 0 ? caller.networks.join(',') : '-';
  return [
    caller.name,
    caller.state,
    `networks ${networks}`,
    `credential ${caller.credential}`,
    `operations ${caller.operations.join(',')}`,
    `scope ${caller.scope}`,
    `expires ${caller.expires ?? 'never'}`,
  ].join('  ');
}

export function listCommand(options: { readonly json: boolean }): Promise<void> {
  return withConfiguredStore(async (store) => {
    const callers = await listCallers(store, new Date());
    if (options.json) process.stdout.write(`${JSON.stringify(callers)}\n`);
    else if (callers.length === 0) process.stdout.write('No callers: only local callers may call beyond HelloWorld.\n');
    else process.stdout.write(`${callers.map(listingLine).join('\n')}\n`);
  }, EXISTING);
}

export function revokeCommand(name: string): Promise<void> {
  return withConfiguredStore(async (store) => {
    await asUsage(() => revokeCaller(store, name, new Date()));
    process.stdout.write(`Revoked ${name}; running services refuse it within seconds.\n`);
  }, EXISTING);
}

export function rotateCommand(name: string): Promise<void> {
  return withConfiguredStore(async (store, config) => {
    const sealer = await digestSealerOf(store, config);
    const { secret, sealedToo } = await asUsage(() => rotateSecret(store, name, sealer, new Date()));
    printSecret(name, secret, sealedToo);
    process.stdout.write('The previous secret stops working within seconds.\n');
  }, EXISTING);
}

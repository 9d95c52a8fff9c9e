import type { PayloadSealer } from '../lib/payload-sealer';
import { NetworkError, parseNetworks } from '../lib/networks';
import { allCallers, type CallerRow, callerNamed, insertCaller, updateActiveCaller } from '../store/queries/callers';
import type { Session } from '../store/session';
import { grantedOperations } from './operation-groups';
import { formatScope, parseScope } from './scope';
import { CALLER_NAME, hashSecret, newSecret } from './secrets';

/** What the operator asks of the callers; a mistake is an AdminError whose message says what to change. */
export class AdminError extends Error {}

export interface NewCaller {
  readonly name: string;
  readonly networks: readonly string[];
  readonly secret: boolean;
  /** Keep the secret sealed as well, for WS-Security PasswordDigest. */
  readonly wsDigest: boolean;
  readonly operations: readonly string[];
  readonly scope: string;
  readonly expires: string | undefined;
}

/** The names the service gives callers it did not store. */
const RESERVED_NAMES = new Set(['local', 'anonymous']);

function checkedExpiry(text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (Number.isNaN(at)) throw new AdminError(`--expires must be a date (2027-06-30) or a time, got "${text}"`);
  if (at <= now.getTime()) throw new AdminError(`--expires must be in the future, got "${text}"`);
  return new Date(at).toISOString();
}

function checkedNetworks(networks: readonly string[]): string[] {
  const entries = networks.flatMap((network) => network.split(',')).map((entry) => entry.trim());
  try {
    parseNetworks(entries.join(','));
  } catch (error) {
    if (error instanceof NetworkError) throw new AdminError(`--network: ${error.message}`);
    throw error;
  }
  return entries.filter((entry) => entry !== '');
}

function checkedOperations(operations: readonly string[]): string[] {
  const entries = operations.flatMap((operation) => operation.split(',')).map((entry) => entry.trim());
  try {
    grantedOperations(entries);
  } catch (error) {
    throw new AdminError(`--operations: ${error instanceof Error ? error.message : String(error)}`);
  }
  return entries.filter((entry) => entry !== '');
}

/** The secret sealed for WS-Security PasswordDigest, or null when the caller does not use it. */
function digestCopy(secret: string, wsDigest: boolean, sealer: PayloadSealer): string | null {
  return wsDigest ? sealer.seal(secret) : null;
}

/** Adds a caller; returns its secret when it has one, which is shown this once and never again. */
export async function addCaller(
  store: Session,
  caller: NewCaller,
  sealer: PayloadSealer,
  now: Date,
): Promise<{ secret: string | undefined }> {
  if (!CALLER_NAME.test(caller.name) || RESERVED_NAMES.has(caller.name)) {
    throw new AdminError(
      `a caller's name is 1 to 64 letters, digits, "_" or "-" (and not local or anonymous), got "${caller.name}"`,
    );
  }
  const existing = await callerNamed(store, caller.name);
  if (existing && existing.revoked_at === null) throw new AdminError(`there is already a caller named ${caller.name}`);
  const networks = checkedNetworks(caller.networks);
  const withSecret = caller.secret || caller.wsDigest;
  if (networks.length === 0 && !withSecret) {
    throw new AdminError('a caller is recognised by --network, by --secret, or by both: give at least one');
  }
  const scope = parseScope(caller.scope);
  if (!scope || scope.kind === 'none') {
    throw new AdminError(`--scope must be school, teacher:ID, guardian:ID or student:ID, got "${caller.scope}"`);
  }
  const operations = checkedOperations(caller.operations);
  if (operations.length === 0) throw new AdminError('--operations must name at least one operation or group');
  const secret = withSecret ? newSecret(caller.name) : undefined;
  const at = now.toISOString();
  await insertCaller(store, {
    name: caller.name,
    networks: JSON.stringify(networks),
    secret_hash: secret === undefined ? null : await hashSecret(secret),
    digest_secret: secret === undefined ? null : digestCopy(secret, caller.wsDigest, sealer),
    operations: JSON.stringify(operations),
    scope: formatScope(scope),
    expires_at: checkedExpiry(caller.expires, now) ?? null,
    created_at: at,
    changed_at: at,
    revoked_at: null,
  });
  return { secret };
}

/** Stops recognising a caller: every process of the service refuses it within ACCESS_REFRESH_MS. */
export async function revokeCaller(store: Session, name: string, now: Date): Promise<void> {
  const at = now.toISOString();
  if (!(await updateActiveCaller(store, name, { revoked_at: at, changed_at: at }))) {
    throw new AdminError(`there is no active caller named ${name}`);
  }
}

/** Gives a caller a new secret; the old one stops working with the next refresh of every process. */
export async function rotateSecret(
  store: Session,
  name: string,
  sealer: PayloadSealer,
  now: Date,
): Promise<{ secret: string; sealedToo: boolean }> {
  const caller = await callerNamed(store, name);
  if (!caller || caller.revoked_at !== null) throw new AdminError(`there is no active caller named ${name}`);
  if (caller.secret_hash === null) throw new AdminError(`${name} is recognised by its network and has no secret`);
  const secret = newSecret(name);
  await updateActiveCaller(store, name, {
    secret_hash: await hashSecret(secret),
    digest_secret: digestCopy(secret, caller.digest_secret !== null, sealer),
    changed_at: now.toISOString(),
  });
  return { secret, sealedToo: caller.digest_secret !== null };
}

export interface CallerListing {
  readonly name: string;
  readonly state: 'active' | 'expired' | 'revoked';
  readonly networks: readonly string[];
  readonly credential: 'none' | 'secret' | 'secret with WS-Security digest';
  readonly operations: readonly string[];
  readonly scope: string;
  readonly expires: string | null;
  readonly created: string;
}

function listingOf(row: CallerRow, now: Date): CallerListing {
  let state: CallerListing['state'] = 'active';
  if (row.revoked_at !== null) state = 'revoked';
  else if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) state = 'expired';
  let credential: CallerListing['credential'] = 'none';
  if (row.secret_hash !== null) credential = row.digest_secret === null ? 'secret' : 'secret with WS-Security digest';
  return {
    name: row.name,
    state,
    networks: JSON.parse(row.networks) as string[],
    credential,
    operations: JSON.parse(row.operations) as string[],
    scope: row.scope,
    expires: row.expires_at,
    created: row.created_at,
  };
}

/** Every caller, with nothing of its secret but whether it has one. */
export async function listCallers(store: Session, now: Date): Promise<CallerListing[]> {
  return (await allCallers(store)).map((row) => listingOf(row, now));
}

import { MomentError, parseMoment } from '../lib/local-time';
import type { PayloadSealer } from '../lib/payload-sealer';
import { NetworkError, parseNetworks } from '../lib/networks';
import {
  allCallers,
  type CallerRow,
  callerNamed,
  insertCaller,
  scopeSubjectExists,
  updateActiveCaller,
} from '../store/queries/callers';
import type { Session } from '../store/session';
import { grantsOf } from './operation-groups';
import { formatScope, parseScope, type Scope } from './scope';
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
  /** A district caller: let in at every school of the deployment (kept in the deployment's own store). */
  readonly allSchools?: boolean;
}

/** The names the service gives callers it did not store. */
const RESERVED_NAMES = new Set(['local', 'anonymous']);

/** The end of a caller's access: a date (the end of that day in the service's time zone) or a date-time. */
function checkedExpiry(text: string | undefined, now: Date): string | undefined {
  if (text === undefined) return undefined;
  let at: Date;
  try {
    at = parseMoment(text);
  } catch (error) {
    if (error instanceof MomentError) throw new AdminError(`--expires: ${error.message}`);
    throw error;
  }
  if (at.getTime() <= now.getTime()) throw new AdminError(`--expires must be in the future, got "${text}"`);
  return at.toISOString();
}

function checkedScope(text: string): Scope {
  const scope = parseScope(text);
  if (!scope || scope.kind === 'none') {
    throw new AdminError(`--scope must be school, teacher:ID, guardian:ID or student:ID, got "${text}"`);
  }
  return scope;
}

/**
 * A district caller sees whole schools: an id of a teacher, guardian or student is a different
 * person at each school (each store numbers its own), so a narrower scope could not mean one person.
 */
function checkedDistrictScope(scope: Scope): Scope {
  if (scope.kind !== 'school') {
    throw new AdminError(
      'a caller of all schools (--all-schools) has --scope school: an id names a different person at each school',
    );
  }
  return scope;
}

/**
 * What the operator should know of a scope: one naming a teacher, guardian or student the store
 * does not hold is let in (the school may be loaded later) but sees nothing until it does.
 */
async function scopeWarnings(store: Session, scope: Scope): Promise<string[]> {
  if (scope.kind === 'school' || scope.kind === 'none') return [];
  if (await scopeSubjectExists(store, scope.kind, scope.id)) return [];
  return [`the store holds no ${scope.kind} ${scope.id}: the caller sees nothing until it does`];
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
    grantsOf(entries);
  } catch (error) {
    throw new AdminError(`--operations: ${error instanceof Error ? error.message : String(error)}`);
  }
  return entries.filter((entry) => entry !== '');
}

/** The secret sealed for WS-Security PasswordDigest, or null when the caller does not use it. */
function digestCopy(secret: string, wsDigest: boolean, sealer: PayloadSealer): string | null {
  return wsDigest ? sealer.seal(secret) : null;
}

/**
 * Adds a caller; returns its secret when it has one, which is shown this once and never again,
 * and what the operator should know of what was asked (a scope naming no one the store holds).
 */
export async function addCaller(
  store: Session,
  caller: NewCaller,
  sealer: PayloadSealer,
  now: Date,
): Promise<{ secret: string | undefined; warnings: string[] }> {
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
  const scope = checkedScope(caller.scope);
  if (caller.allSchools) checkedDistrictScope(scope);
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
    all_schools: caller.allSchools ? 1 : 0,
  });
  return { secret, warnings: await scopeWarnings(store, scope) };
}

/** What `callers update` changes; what is left undefined stays as it is. */
export interface CallerChanges {
  readonly networks?: readonly string[];
  readonly operations?: readonly string[];
  readonly scope?: string;
  /** A date or date-time, or null for never. */
  readonly expires?: string | null;
}

/** Changes an active caller's networks, operations, scope or expiry; its secret stays as it is. */
export async function updateCaller(
  store: Session,
  name: string,
  changes: CallerChanges,
  now: Date,
): Promise<{ warnings: string[] }> {
  const caller = await callerNamed(store, name);
  if (!caller || caller.revoked_at !== null) throw new AdminError(`there is no active caller named ${name}`);
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new AdminError('name at least one change: --network, --any-network, --operations, --scope or --expires');
  }
  const networks = changes.networks === undefined ? undefined : checkedNetworks(changes.networks);
  if (networks?.length === 0 && caller.secret_hash === null) {
    throw new AdminError(`${name} has no secret: it is recognised by its networks, which cannot all be removed`);
  }
  const operations = changes.operations === undefined ? undefined : checkedOperations(changes.operations);
  if (operations?.length === 0) throw new AdminError('--operations must name at least one operation or group');
  const scope = changes.scope === undefined ? undefined : checkedScope(changes.scope);
  if (scope !== undefined && caller.all_schools === 1) checkedDistrictScope(scope);
  const expires = changes.expires === null ? null : checkedExpiry(changes.expires, now);
  await updateActiveCaller(store, name, {
    ...(networks === undefined ? {} : { networks: JSON.stringify(networks) }),
    ...(operations === undefined ? {} : { operations: JSON.stringify(operations) }),
    ...(scope === undefined ? {} : { scope: formatScope(scope) }),
    ...(changes.expires === undefined ? {} : { expires_at: expires ?? null }),
    changed_at: now.toISOString(),
  });
  return { warnings: scope === undefined ? [] : await scopeWarnings(store, scope) };
}

/** Stops recognising a caller: every process of the service refuses it within ACCESS_REFRESH_MS. */
export async function revokeCaller(store: Session, name: string, now: Date): Promise<void> {
  const at = now.toISOString();
  if (!(await updateActiveCaller(store, name, { revoked_at: at, changed_at: at }))) {
    throw new AdminError(`there is no active caller named ${name}`);
  }
}

/**
 * Gives a caller a new secret. The old one is let in for `graceMs` more (0: it stops with the next
 * refresh of every process), so that clients can be changed one by one; after that it is still
 * told apart from a wrong secret, so that a client still sending it is refused without throttling
 * the new one. A rotation during another's grace ends that grace: only the last secret is kept.
 */
export async function rotateSecret(
  store: Session,
  name: string,
  sealer: PayloadSealer,
  now: Date,
  graceMs = 0,
): Promise<{ secret: string; sealedToo: boolean; previousUntil: string }> {
  const caller = await callerNamed(store, name);
  if (!caller || caller.revoked_at !== null) throw new AdminError(`there is no active caller named ${name}`);
  if (caller.secret_hash === null) throw new AdminError(`${name} is recognised by its network and has no secret`);
  const secret = newSecret(name);
  const previousUntil = new Date(now.getTime() + graceMs).toISOString();
  await updateActiveCaller(store, name, {
    secret_hash: await hashSecret(secret),
    digest_secret: digestCopy(secret, caller.digest_secret !== null, sealer),
    previous_secret_hash: caller.secret_hash,
    previous_digest_secret: caller.digest_secret,
    previous_secret_until: previousUntil,
    changed_at: now.toISOString(),
  });
  return { secret, sealedToo: caller.digest_secret !== null, previousUntil };
}

export interface CallerListing {
  readonly name: string;
  readonly state: 'active' | 'expired' | 'revoked';
  readonly networks: readonly string[];
  readonly credential: 'none' | 'secret' | 'secret with WS-Security digest';
  readonly operations: readonly string[];
  readonly scope: string;
  readonly expires: string | null;
  /** Until when the secret a rotation replaced is still let in; null when none is. */
  readonly previousSecretUntil: string | null;
  readonly created: string;
  readonly revoked: string | null;
  /** A district caller, let in at every school of the deployment. */
  readonly allSchools: boolean;
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
    previousSecretUntil:
      row.revoked_at === null &&
      row.previous_secret_until !== null &&
      Date.parse(row.previous_secret_until) > now.getTime()
        ? row.previous_secret_until
        : null,
    created: row.created_at,
    revoked: row.revoked_at,
    allSchools: row.all_schools === 1,
  };
}

/**
 * Every caller, with nothing of its secret but whether it has one; a caller revoked more than
 * `revokedKeepDays` ago has left the list (the service removes it from the store as well).
 */
export async function listCallers(store: Session, now: Date, revokedKeepDays: number): Promise<CallerListing[]> {
  const revokedSince = now.getTime() - revokedKeepDays * 86_400_000;
  return (await allCallers(store))
    .filter((row) => row.revoked_at === null || Date.parse(row.revoked_at) >= revokedSince)
    .map((row) => listingOf(row, now));
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { AccessSettings } from '../config/access-settings';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import { type NetworkList, parseNetworks } from '../lib/networks';
import type { PayloadSealer } from '../lib/payload-sealer';
import { allCallers, type CallerRow, callersSignature } from '../store/queries/callers';
import { pruneNonces, rememberNonce } from '../store/queries/ws-security-nonces';
import type { Session } from '../store/session';
import { type Credentials, UNREADABLE } from './credentials';
import { grantedOperations, OPERATION_ACCESS } from './operation-groups';
import { parseScope, SCHOOL_SCOPE, type Scope } from './scope';
import { callerNameOf, secretMatches } from './secrets';
import { createdTime, nonceBytes } from './username-token';

/** Who a call comes from, once recognised. */
export interface Identity {
  /** The caller's name; "local" for a caller on LOCAL_NETWORKS that presented nothing. */
  readonly name: string;
  readonly scope: Scope;
  readonly operations: ReadonlySet<OperationName>;
}

export type Recognition =
  | { readonly kind: 'identified'; readonly identity: Identity }
  /** Nothing was presented and the address is no one's. */
  | { readonly kind: 'anonymous' }
  /** Something was presented and not accepted; `reason` is for the log, never for the caller. */
  | { readonly kind: 'refused'; readonly reason: string };

interface CallerEntry extends Identity {
  readonly networks: NetworkList | undefined;
  readonly secretHash: string | null;
  readonly digestSecret: string | null;
  readonly expiresAt: number | undefined;
}

const ALL_OPERATIONS = grantedOperations(['all']);
const LOCAL: Identity = { name: 'local', scope: SCHOOL_SCOPE, operations: ALL_OPERATIONS };
const LOCAL_RECOGNITION: Recognition = { kind: 'identified', identity: LOCAL };
const ANONYMOUS: Recognition = { kind: 'anonymous' };
/** Verified secrets remembered at most; the memory is dropped and built again past it. */
const MAX_VERIFIED = 10_000;
const NONCE_PRUNE_MS = 60_000;
/**
 * Secrets that do not match, per address and minute, that are checked at all: each check costs an
 * scrypt hash, so beyond this an address's guesses are refused unchecked until the minute is over.
 */
const FAILED_CHECKS_PER_MINUTE = 10;
const MAX_TRACKED_ADDRESSES = 10_000;

function entryOf(row: CallerRow): CallerEntry {
  const networks = JSON.parse(row.networks) as string[];
  return {
    name: row.name,
    scope: parseScope(row.scope) ?? SCHOOL_SCOPE,
    operations: grantedOperations(JSON.parse(row.operations) as string[]),
    networks: networks.length > 0 ? parseNetworks(networks.join(',')) : undefined,
    secretHash: row.secret_hash,
    digestSecret: row.digest_secret,
    expiresAt: row.expires_at === null ? undefined : Date.parse(row.expires_at),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const refused = (reason: string): Recognition => ({ kind: 'refused', reason });

/**
 * The callers the operator let in, as every process of the service sees them: read from the
 * store at start and again whenever they change (each process looks every ACCESS_REFRESH_MS), so
 * that an added, revoked or rotated caller counts everywhere within seconds, without a restart.
 * Recognising a call costs a lookup: a secret verified once is remembered, and the memory is
 * dropped with every change, so a revoked or rotated secret stops working with it.
 */
export class CallerRegistry {
  private byName = new Map<string, CallerEntry>();
  private networkOnly: CallerEntry[] = [];
  private secretHolders: CallerEntry[] = [];
  private verified = new Map<string, CallerEntry>();
  private signature = '';
  private timer: NodeJS.Timeout | undefined;
  private lastNoncePrune = 0;
  private failedChecks = new Map<string, { minute: number; count: number }>();
  /** Who each address seen lately is without credentials; forgotten with every change of the callers. */
  private byAddress = new Map<string, Recognition>();

  private constructor(
    private readonly store: Session,
    private readonly settings: AccessSettings,
    private readonly digestSealer: PayloadSealer,
    private readonly clock: () => Date,
  ) {}

  static async open(
    store: Session,
    settings: AccessSettings,
    digestSealer: PayloadSealer,
    clock: () => Date,
  ): Promise<CallerRegistry> {
    const registry = new CallerRegistry(store, settings, digestSealer, clock);
    await registry.refresh();
    registry.timer = setInterval(() => {
      registry.refresh().catch((error: unknown) => {
        log.warn('could not read the callers; keeping the ones read before', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    }, settings.refreshMs);
    registry.timer.unref();
    return registry;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads the callers again if they changed since the last read. */
  async refresh(): Promise<void> {
    const signature = await callersSignature(this.store);
    if (signature !== this.signature) {
      const entries = (await allCallers(this.store)).filter((row) => row.revoked_at === null).map(entryOf);
      this.byName = new Map(entries.map((entry) => [entry.name, entry]));
      this.networkOnly = entries.filter((entry) => entry.networks && entry.secretHash === null);
      this.secretHolders = entries.filter((entry) => entry.secretHash !== null);
      this.verified = new Map();
      this.byAddress = new Map();
      this.signature = signature;
    }
    const now = this.clock().getTime();
    if (now - this.lastNoncePrune > NONCE_PRUNE_MS) {
      this.lastNoncePrune = now;
      await pruneNonces(this.store, new Date(now - this.settings.replayWindowMs).toISOString());
    }
  }

  /** Whether some caller holding a secret may call the operation: then a credential could help. */
  credentialCouldHelp(operation: OperationName): boolean {
    const now = this.clock().getTime();
    return this.secretHolders.some((entry) => entry.operations.has(operation) && !this.expired(entry, now));
  }

  /** Who the call comes from, by what it presented, else by its address. */
  recognise(
    address: string,
    credentials: Credentials | typeof UNREADABLE | undefined,
  ): Recognition | Promise<Recognition> {
    if (credentials === UNREADABLE) return refused('unreadable credentials');
    if (credentials !== undefined) return this.recogniseCredentials(address, credentials);
    let known = this.byAddress.get(address);
    if (known === undefined) {
      known = this.recogniseAddress(address);
      if (this.byAddress.size >= MAX_TRACKED_ADDRESSES) this.byAddress.clear();
      this.byAddress.set(address, known);
    }
    // A caller that expired since is dropped from the answer the address had.
    if (known.kind === 'identified' && this.expired(known.identity as CallerEntry, this.clock().getTime())) {
      return this.recogniseAddress(address);
    }
    return known;
  }

  /** Who an address is without credentials: the first network caller whose networks hold it, else local or no one. */
  private recogniseAddress(address: string): Recognition {
    const now = this.clock().getTime();
    const owner = this.networkOnly.find((entry) => !this.expired(entry, now) && entry.networks?.contains(address));
    if (owner) return { kind: 'identified', identity: owner };
    return this.settings.localNetworks.contains(address) ? LOCAL_RECOGNITION : ANONYMOUS;
  }

  private expired(entry: CallerEntry, now: number): boolean {
    return entry.expiresAt !== undefined && entry.expiresAt <= now;
  }

  private async recogniseCredentials(address: string, credentials: Credentials): Promise<Recognition> {
    const name = credentials.kind === 'bearer' ? (callerNameOf(credentials.secret) ?? '') : credentials.name;
    const entry = this.byName.get(name);
    if (!entry) return refused('no such caller');
    if (this.expired(entry, this.clock().getTime())) return refused('caller expired');
    if (entry.networks && !entry.networks.contains(address)) return refused("not from the caller's networks");
    if (credentials.kind === 'username-token') return this.recogniseUsernameToken(entry, credentials, address);
    return (await this.secretVerified(entry, credentials.secret, address))
      ? identified(entry)
      : refused('wrong secret');
  }

  /** Whether the address may have another secret checked this minute. */
  private mayCheck(address: string): boolean {
    const minute = Math.floor(this.clock().getTime() / 60_000);
    const failed = this.failedChecks.get(address);
    return !failed || failed.minute !== minute || failed.count < FAILED_CHECKS_PER_MINUTE;
  }

  private countFailure(address: string): void {
    const minute = Math.floor(this.clock().getTime() / 60_000);
    const failed = this.failedChecks.get(address);
    if (failed && failed.minute === minute) {
      failed.count += 1;
      return;
    }
    if (this.failedChecks.size >= MAX_TRACKED_ADDRESSES) this.failedChecks.clear();
    this.failedChecks.set(address, { minute, count: 1 });
  }

  private async secretVerified(entry: CallerEntry, secret: string, address: string): Promise<boolean> {
    if (entry.secretHash === null) return false;
    const key = sha256(`${entry.name}\0${secret}`);
    if (this.verified.get(key) === entry) return true;
    if (!this.mayCheck(address)) return false;
    if (!(await secretMatches(secret, entry.secretHash))) {
      this.countFailure(address);
      return false;
    }
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(key, entry);
    return true;
  }

  private async recogniseUsernameToken(
    entry: CallerEntry,
    token: Extract<Credentials, { kind: 'username-token' }>,
    address: string,
  ): Promise<Recognition> {
    const now = this.clock().getTime();
    let created = now;
    if (token.created !== undefined || token.digest) {
      const time = createdTime(token.created ?? '', now, this.settings.replayWindowMs, this.settings.clockSkewMs);
      if (time === undefined) return refused('stale or future Created');
      created = time;
    }
    const nonce = token.nonce === undefined ? undefined : nonceBytes(token.nonce);
    if (token.nonce !== undefined && nonce === undefined)
      return refused('nonce not canonical base64 of 16 to 64 bytes');
    const accepted = token.digest
      ? this.digestMatches(entry, token, nonce)
      : await this.secretVerified(entry, token.password, address);
    if (!accepted) return refused('wrong password');
    if (nonce !== undefined || token.digest) {
      // Keyed by the bytes the digest covers, so that no other spelling of a nonce passes for a new one. The
      // store forgets a nonce a window after the time given, which for a Created ahead of now is the Created:
      // the nonce is kept while its token could be taken.
      const nonceHash = sha256(`${entry.name}\0${nonce?.toString('hex') ?? ''}`);
      const keptFrom = new Date(Math.max(now, created)).toISOString();
      if (!(await rememberNonce(this.store, nonceHash, keptFrom))) return refused('replayed nonce');
    }
    return identified(entry);
  }

  /** PasswordDigest: Base64(SHA-1(nonce + created + secret)), the nonce decoded from Base64. */
  private digestMatches(
    entry: CallerEntry,
    token: Extract<Credentials, { kind: 'username-token' }>,
    nonce: Buffer | undefined,
  ): boolean {
    if (entry.digestSecret === null || nonce === undefined || token.created === undefined) return false;
    let secret: string;
    try {
      secret = this.digestSealer.open(entry.digestSecret);
    } catch {
      log.warn("a caller's digest secret cannot be opened (was OUTBOX_KEY changed?)", { caller: entry.name });
      return false;
    }
    const expected = createHash('sha1')
      .update(Buffer.concat([nonce, Buffer.from(token.created + secret, 'utf8')]))
      .digest();
    const given = Buffer.from(token.password, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function identified(identity: Identity): Recognition {
  return { kind: 'identified', identity };
}

/** Whether the identity may call the operation: HelloWorld anyone may. */
export function mayCall(identity: Identity | undefined, operation: OperationName): boolean {
  return OPERATION_ACCESS[operation].group === 'public' || (identity?.operations.has(operation) ?? false);
}

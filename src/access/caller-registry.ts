import { createHash } from 'node:crypto';
import type { AccessSettings } from '../config/access-settings';
import type { OperationName } from '../contract/operation-types';
import { log } from '../lib/log';
import { SerialReads } from '../lib/serial-reads';
import { warnOncePerNode } from '../lib/node-warnings';
import type { PayloadSealer } from '../lib/payload-sealer';
import { allCallers, callersSignature, pruneRevokedCallers } from '../store/queries/callers';
import { pruneNonces, rememberNonce } from '../store/queries/ws-security-nonces';
import type { Session } from '../store/session';
import { type CallerEntry, entryOf, expired, type Identity, type Recognition } from './caller-entry';
import { type CallerSet, callerSetOf, type DistrictCallers } from './caller-set';
import { type Credentials, UNREADABLE } from './credentials';
import type { OperationGroup } from '../contract/operation-policies';
import { grantsOf } from './operation-groups';
import { SCHOOL_SCOPE } from './scope';
import { SecretAttempts } from './secret-attempts';
import { GATE_BUSY, SecretCheckGate } from './secret-check-gate';
import { callerNameOf, newSecret, secretMatches, showsHint, UNMATCHABLE_HASH } from './secrets';
import { createdTime, digestMatches, nonceBytes, type UsernameToken } from './username-token';

export type { Identity, Recognition } from './caller-entry';
export { mayCall } from './caller-entry';

/** What checking a presented secret came to; every outcome but a match is a refusal's reason for the log. */
type SecretCheck = { readonly kind: 'match'; readonly entry: CallerEntry } | Refusal;

/** A verified secret remembered: whose it is, and until when it is let in (a replaced secret's grace). */
interface Verified {
  readonly entry: CallerEntry;
  readonly until: number | undefined;
}

const ALL_OPERATIONS = grantsOf(['all']);
const LOCAL: Identity = { name: 'local', scope: SCHOOL_SCOPE, operations: ALL_OPERATIONS };
const LOCAL_RECOGNITION: Recognition = { kind: 'identified', identity: LOCAL };
const ANONYMOUS: Recognition = { kind: 'anonymous' };
/** Verified secrets remembered at most; the memory is dropped and built again past it. */
const MAX_VERIFIED = 10_000;
const NONCE_PRUNE_MS = 60_000;
/**
 * Secrets that do not match, per caller name, address and minute, that are checked at all: beyond
 * this that name's secrets from that address are refused unchecked until the minute is over.
 */
const FAILED_CHECKS_PER_MINUTE = 10;
const MAX_TRACKED_ADDRESSES = 10_000;
/** How long after its grace period a replaced secret is still told apart from a wrong one. */
const RETIRED_RECOGNISED_MS = 7 * 86_400_000;
const REVOKED_PRUNE_MS = 3_600_000;
/** The reasons a refusal by the throttle or the gate is logged with: never "wrong secret". */
const THROTTLED = 'throttled: too many wrong secrets for this caller from this address this minute';
const BUSY = 'throttled: secret checks busy';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

type Refusal = Extract<Recognition, { kind: 'refused' }>;
const refused = (reason: string): Refusal => ({ kind: 'refused', reason });

/**
 * The callers the operator let in, as every process of the service sees them: read from the
 * store at start and again whenever they change (each process looks every ACCESS_REFRESH_MS), so
 * that an added, revoked or rotated caller counts everywhere within seconds, without a restart.
 * Recognising a call costs a lookup: a secret verified once is remembered, and the memory is
 * dropped with every change, so a revoked or rotated secret stops working with it.
 */
export class CallerRegistry {
  /** The callers of this registry's store: a new array whenever they change. */
  private own: CallerEntry[] = [];
  /** The callers recognised: the store's own, and the district's (as last seen) for a school of a district. */
  private set: CallerSet = callerSetOf([], []);
  private districtSeen: readonly CallerEntry[] | undefined;
  private verified = new Map<string, Verified>();
  private signature = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly reads = new SerialReads(() => this.read());
  private lastNoncePrune = 0;
  private lastRevokedPrune = 0;
  private readonly attempts = new SecretAttempts(FAILED_CHECKS_PER_MINUTE);
  private readonly gate: SecretCheckGate;
  /** A sealed secret no caller has: a digest for an unknown name is checked against it, as for a known one. */
  private readonly unmatchableDigest: string;
  /** Who each address seen lately is without credentials; forgotten with every change of the callers. */
  private byAddress = new Map<string, Recognition>();

  private constructor(
    private readonly store: Session,
    private readonly settings: AccessSettings,
    private readonly digestSealer: PayloadSealer,
    private readonly clock: () => Date,
    private readonly district: DistrictCallers | undefined,
  ) {
    this.gate = new SecretCheckGate({
      inFlight: settings.secretChecksInFlight,
      cpuPercent: settings.secretCheckCpuPercent,
    });
    this.unmatchableDigest = digestSealer.seal(newSecret('unmatchable'));
  }

  /** What the secret checks have cost this process: checks run, refused as busy, and their CPU time. */
  get secretChecks(): Readonly<{ checks: number; busy: number; cpuMs: number }> {
    return this.gate.spent;
  }

  static async open(
    store: Session,
    settings: AccessSettings,
    digestSealer: PayloadSealer,
    clock: () => Date,
    district?: DistrictCallers,
  ): Promise<CallerRegistry> {
    const registry = new CallerRegistry(store, settings, digestSealer, clock, district);
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

  /** The district callers of this registry's store, as the schools of the deployment see them (see caller-set.ts). */
  districtCallers(): DistrictCallers {
    return { entries: () => this.own, digestSealer: this.digestSealer, store: this.store };
  }

  /**
   * The callers as they are now: a change the deployment's registry read is taken at the next
   * lookup, so that a district caller revoked is refused at every school once the deployment has read it.
   */
  private callers(): CallerSet {
    if (this.district && this.district.entries() !== this.districtSeen) this.recount();
    return this.set;
  }

  /** The district of a district caller at a school: its digest secret and nonces are the deployment's. */
  private districtOf(entry: CallerEntry | undefined): DistrictCallers | undefined {
    return entry && this.set.fromDistrict.has(entry) ? this.district : undefined;
  }

  private recount(): void {
    const own = this.district ? this.own.filter((entry) => !entry.allSchools) : this.own;
    this.districtSeen = this.district?.entries();
    this.set = callerSetOf(own, this.districtSeen?.filter((entry) => entry.allSchools) ?? []);
    this.verified = new Map();
    this.byAddress = new Map();
  }

  /** Reads the callers again if they changed since the last read, one read at a time (see SerialReads). */
  refresh(): Promise<void> {
    return this.reads.run();
  }

  private async read(): Promise<void> {
    const signature = await callersSignature(this.store);
    if (signature !== this.signature) {
      const entries = (await allCallers(this.store)).filter((row) => row.revoked_at === null).map(entryOf);
      this.own = entries;
      this.recount();
      this.signature = signature;
    }
    const now = this.clock().getTime();
    if (now - this.lastNoncePrune > NONCE_PRUNE_MS) {
      this.lastNoncePrune = now;
      await pruneNonces(this.store, new Date(now - this.settings.replayWindowMs).toISOString());
    }
    if (now - this.lastRevokedPrune > REVOKED_PRUNE_MS) {
      this.lastRevokedPrune = now;
      await pruneRevokedCallers(this.store, new Date(now - this.settings.revokedKeepDays * 86_400_000).toISOString());
    }
  }

  /**
   * A caller holding a secret, as it is now (undefined when it is revoked, expired or unknown), with
   * its secret's version: a fingerprint of its hash, which a rotation changes (see oauth-tokens.ts).
   */
  secretHolder(name: string): { readonly identity: Identity; readonly version: string } | undefined {
    const entry = this.callers().byName.get(name);
    if (entry === undefined || entry.secretHash === null || expired(entry, this.clock().getTime())) return undefined;
    return { identity: entry, version: sha256(entry.secretHash).slice(0, 16) };
  }

  /** Whether some caller holding a secret may call the operation: then a credential could help. */
  credentialCouldHelp(operation: OperationName, group: OperationGroup): boolean {
    const now = this.clock().getTime();
    return this.callers().secretHolders.some(
      (entry) => entry.operations.covers(operation, group) && !expired(entry, now),
    );
  }

  /** Who the call comes from, by what it presented, else by its address. */
  recognise(
    address: string,
    credentials: Credentials | typeof UNREADABLE | undefined,
  ): Recognition | Promise<Recognition> {
    if (credentials === UNREADABLE) return refused('unreadable credentials');
    if (credentials !== undefined) return this.recogniseCredentials(address, credentials);
    this.callers();
    let known = this.byAddress.get(address);
    if (known === undefined) {
      known = this.recogniseAddress(address);
      if (this.byAddress.size >= MAX_TRACKED_ADDRESSES) this.byAddress.clear();
      this.byAddress.set(address, known);
    }
    // A caller that expired since is dropped from the answer the address had.
    if (known.kind === 'identified' && expired(known.identity as CallerEntry, this.clock().getTime())) {
      return this.recogniseAddress(address);
    }
    return known;
  }

  /** Who an address is without credentials: the first network caller whose networks hold it, else local or no one. */
  private recogniseAddress(address: string): Recognition {
    const now = this.clock().getTime();
    const owner = this.callers().networkOnly.find((entry) => !expired(entry, now) && entry.networks?.contains(address));
    if (owner) return { kind: 'identified', identity: owner };
    return this.settings.localNetworks.contains(address) ? LOCAL_RECOGNITION : ANONYMOUS;
  }

  private async recogniseCredentials(address: string, credentials: Credentials): Promise<Recognition> {
    const name = credentials.kind === 'bearer' ? (callerNameOf(credentials.secret) ?? '') : credentials.name;
    const entry = this.callers().byName.get(name);
    if (credentials.kind === 'username-token') return this.recogniseUsernameToken(name, entry, credentials, address);
    const check = await this.checkSecret(name, entry, credentials.secret, address);
    return check.kind === 'match' ? this.admitted(check.entry, address) : check;
  }

  /**
   * A caller whose secret matched, let in unless it expired or calls from outside its networks:
   * checked after the secret, so that a refusal costs the same whether the name exists or not.
   */
  private admitted(entry: CallerEntry, address: string): Recognition {
    if (expired(entry, this.clock().getTime())) return refused('caller expired');
    if (entry.networks && !entry.networks.contains(address)) return refused("not from the caller's networks");
    return identified(entry);
  }

  /**
   * Checks a secret presented with a caller's name. A secret verified before is a lookup. Otherwise
   * a name no caller holds (or one without a secret) is checked against a hash no secret matches,
   * at the same cost; wrong secrets are counted per name and address and, past the limit, refused
   * unchecked; and every check passes the gate that bounds the CPU they take.
   */
  private async checkSecret(
    name: string,
    entry: CallerEntry | undefined,
    secret: string,
    address: string,
  ): Promise<SecretCheck> {
    const key = sha256(`${name}\0${secret}`);
    const now = this.clock().getTime();
    const known = this.verified.get(key);
    if (known !== undefined && known.entry === entry) return this.verifiedOutcome(known, address, now);
    if (this.attempts.throttled(name, address, now)) return refused(THROTTLED);
    const hashes = this.hashesOf(entry, now);
    // A secret showing its hash's hint is almost surely right, and a name let in from this address
    // before is most likely its client (a hash made before hints has none): both go ahead of a flood.
    const priority = hashes.some((hash) => showsHint(secret, hash)) || this.attempts.knownClient(name, address, now);
    const lane = { priority, address };
    // Both hashes of a caller whose secret was replaced are computed at once, so that the check takes no longer.
    const outcome = await this.gate.run(
      () => Promise.all(hashes.map((hash) => secretMatches(secret, hash))),
      lane,
      hashes.length,
    );
    if (outcome === GATE_BUSY) return refused(BUSY);
    const checkedAt = this.clock().getTime();
    const matched = outcome.indexOf(true);
    if (entry === undefined || matched === -1) {
      this.attempts.failed(name, address, checkedAt);
      return refused(entry === undefined ? 'no such caller' : 'wrong secret');
    }
    // The first hash is the caller's secret's; a match of the second is the replaced one, let in until its grace ends.
    const verified: Verified = { entry, until: matched === 0 ? undefined : entry.previous?.until };
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(key, verified);
    return this.verifiedOutcome(verified, address, checkedAt);
  }

  /** The hashes a secret for this name is checked against: its own, and a replaced one's while that is recognised. */
  private hashesOf(entry: CallerEntry | undefined, now: number): string[] {
    const hashes = [entry?.secretHash ?? UNMATCHABLE_HASH];
    const previous = entry?.previous;
    if (entry?.secretHash && previous && now < previous.until + RETIRED_RECOGNISED_MS) hashes.push(previous.hash);
    return hashes;
  }

  /** A verified secret: a match, or a replaced secret past its grace, which is not counted as a wrong one. */
  private verifiedOutcome(verified: Verified, address: string, now: number): SecretCheck {
    if (verified.until !== undefined && verified.until <= now) return refused('retired secret: replaced, grace over');
    this.attempts.letIn(verified.entry.name, address, now);
    return { kind: 'match', entry: verified.entry };
  }

  private async recogniseUsernameToken(
    name: string,
    caller: CallerEntry | undefined,
    token: UsernameToken,
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
    const check = token.digest
      ? this.checkDigest(caller, token, nonce, address)
      : await this.checkSecret(name, caller, token.password, address);
    if (check.kind !== 'match') return check;
    const admitted = this.admitted(check.entry, address);
    if (admitted.kind !== 'identified') return admitted;
    const entry = check.entry;
    if (nonce !== undefined || token.digest) {
      // Keyed by the bytes the digest covers, so that no other spelling of a nonce passes for a new one. The
      // store forgets a nonce a window after the time given, which for a Created ahead of now is the Created:
      // the nonce is kept while its token could be taken.
      const nonceHash = sha256(`${entry.name}\0${nonce?.toString('hex') ?? ''}`);
      const keptFrom = new Date(Math.max(now, created)).toISOString();
      const nonces = this.districtOf(entry)?.store ?? this.store;
      if (!(await rememberNonce(nonces, nonceHash, keptFrom))) return refused('replayed nonce');
    }
    return identified(entry);
  }

  /**
   * Checks a PasswordDigest against the caller's sealed secret (and a replaced one's), or, for a
   * name no caller holds, against a sealed secret no one has, at the same cost. A digest costs a
   * few microseconds, no scrypt: it passes no gate and no throttle (its secret, 256 random bits,
   * cannot be guessed; a replay is refused by its nonce).
   */
  private checkDigest(
    caller: CallerEntry | undefined,
    token: UsernameToken,
    nonce: Buffer | undefined,
    address: string,
  ): SecretCheck {
    const now = this.clock().getTime();
    const previous = caller?.previous;
    const current = caller?.digestSecret ?? null;
    if (this.digestMatches(caller, current ?? this.unmatchableDigest, token, nonce) && caller && current !== null) {
      return this.verifiedOutcome({ entry: caller, until: undefined }, address, now);
    }
    const recognised = previous !== undefined && now < previous.until + RETIRED_RECOGNISED_MS;
    if (
      caller &&
      recognised &&
      previous.digestSecret !== null &&
      this.digestMatches(caller, previous.digestSecret, token, nonce)
    ) {
      return this.verifiedOutcome({ entry: caller, until: previous.until }, address, now);
    }
    return refused(caller === undefined ? 'no such caller' : 'wrong password');
  }

  /** Whether the token's digest was made with the sealed secret; one that cannot be opened matches nothing. */
  private digestMatches(
    caller: CallerEntry | undefined,
    sealed: string,
    token: UsernameToken,
    nonce: Buffer | undefined,
  ): boolean {
    // A district caller's secret is sealed under the deployment's key, a school's own under the school's.
    const sealer = this.districtOf(caller)?.digestSealer;
    let secret: string;
    try {
      secret = (sealer ?? this.digestSealer).open(sealed);
    } catch {
      warnOncePerNode("a caller's digest secret cannot be opened (was OUTBOX_KEY changed?)", { caller: caller?.name });
      return false;
    }
    return digestMatches(token, nonce, secret);
  }
}

function identified(identity: Identity): Recognition {
  return { kind: 'identified', identity };
}

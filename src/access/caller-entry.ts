import type { OperationGroup } from '../contract/operation-policies';
import type { OperationName } from '../contract/operation-types';
import { type NetworkList, parseNetworks } from '../lib/networks';
import type { CallerRow } from '../store/queries/callers';
import { type Grants, grantsOf } from './operation-groups';
import { parseScope, SCHOOL_SCOPE, type Scope } from './scope';

/** Who a call comes from, once recognised. */
export interface Identity {
  /** The caller's name; "local" for a caller on LOCAL_NETWORKS that presented nothing. */
  readonly name: string;
  readonly scope: Scope;
  /** What it may call, by operation and group. */
  readonly operations: Grants;
}

export type Recognition =
  | { readonly kind: 'identified'; readonly identity: Identity }
  /** Nothing was presented and the address is no one's. */
  | { readonly kind: 'anonymous' }
  /** Something was presented and not accepted; `reason` is for the log, never for the caller. */
  | { readonly kind: 'refused'; readonly reason: string };

/** A caller the operator let in, as the registry holds it to recognise its calls. */
export interface CallerEntry extends Identity {
  readonly networks: NetworkList | undefined;
  readonly secretHash: string | null;
  readonly digestSecret: string | null;
  readonly expiresAt: number | undefined;
  /** The secret a rotation replaced, while it is let in or still recognised; undefined when there is none. */
  readonly previous: PreviousSecret | undefined;
  /** A district caller: kept in the deployment's own store and let in at every school of the deployment. */
  readonly allSchools: boolean;
}

export interface PreviousSecret {
  readonly hash: string;
  readonly digestSecret: string | null;
  /** Until when it is let in; after that, a client sending it is refused as sending a retired secret. */
  readonly until: number;
}

function previousOf(row: CallerRow): PreviousSecret | undefined {
  if (row.previous_secret_hash === null || row.previous_secret_until === null) return undefined;
  return {
    hash: row.previous_secret_hash,
    digestSecret: row.previous_digest_secret,
    until: Date.parse(row.previous_secret_until),
  };
}

/** A caller's row of the store, read into the form its calls are checked against. */
export function entryOf(row: CallerRow): CallerEntry {
  const networks = JSON.parse(row.networks) as string[];
  return {
    name: row.name,
    scope: parseScope(row.scope) ?? SCHOOL_SCOPE,
    operations: grantsOf(JSON.parse(row.operations) as string[]),
    networks: networks.length > 0 ? parseNetworks(networks.join(',')) : undefined,
    secretHash: row.secret_hash,
    digestSecret: row.digest_secret,
    expiresAt: row.expires_at === null ? undefined : Date.parse(row.expires_at),
    previous: previousOf(row),
    allSchools: row.all_schools === 1,
  };
}

/** Whether the caller's entry has expired by `now` (milliseconds). */
export function expired(entry: CallerEntry, now: number): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt <= now;
}

/** Whether the identity may call the operation, of the group its policy row names: a public one anyone may. */
export function mayCall(identity: Identity | undefined, operation: OperationName, group: OperationGroup): boolean {
  return group === 'public' || (identity?.operations.covers(operation, group) ?? false);
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProviderGroup } from '../contract/operation-policies';
import type { Grants } from './operation-groups';

/**
 * The OneRoster provider's bearer tokens (OAuth 2 client credentials). A token is signed, not
 * stored: its caller, the caller's secret version, its scopes and its end, with an HMAC under a key
 * derived from the service key every node of a store shares, so that any node takes a token any
 * other issued. A token is only as good as its caller: the caller is looked up at every use, so a
 * revoked, expired or re-keyed caller's tokens stop with it, and its scope and operations as they
 * are now decide what the token reads and writes.
 */
export interface TokenClaims {
  readonly caller: string;
  /** The caller's secret version when the token was issued (see CallerRegistry.tokenVersionOf). */
  readonly version: string;
  /** The scope URIs granted. */
  readonly scopes: readonly string[];
  /** When it ends, in ms since the epoch. */
  readonly expiresAt: number;
}

const SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p2/scope/';

/** The OneRoster 1.2 scopes, each with the group a caller must be granted to be given it. */
export const ONEROSTER_SCOPES: Readonly<Record<string, ProviderGroup>> = {
  [`${SCOPE_BASE}roster-core.readonly`]: 'roster',
  [`${SCOPE_BASE}roster.readonly`]: 'roster',
  [`${SCOPE_BASE}roster-demographics.readonly`]: 'roster',
  [`${SCOPE_BASE}gradebook.readonly`]: 'gradebook',
  [`${SCOPE_BASE}gradebook.createput`]: 'gradebook',
  [`${SCOPE_BASE}gradebook.delete`]: 'gradebook',
};

/** A scope's full URI from its last part ("roster.readonly"). */
export function scopeUri(name: string): string {
  return `${SCOPE_BASE}${name}`;
}

/** The longest token taken: a longer Authorization header is refused before it is decoded. */
export const MAX_TOKEN_LENGTH = 2048;
const TOKEN_PREFIX = 'or1.';

/**
 * The scopes a caller with `grants` is given for `requested` (space-separated URIs, or every scope
 * its groups allow when undefined); undefined when one asked for is unknown or not allowed, or
 * when the caller is allowed none (`invalid_scope`).
 */
export function grantedScopes(grants: Grants, requested: string | undefined): string[] | undefined {
  const allowed = Object.keys(ONEROSTER_SCOPES).filter((scope) => grants.grantsGroup(ONEROSTER_SCOPES[scope]));
  if (requested === undefined) return allowed.length > 0 ? allowed : undefined;
  // A scope's last part alone ("roster.readonly") is taken for its URI, as some consumers send it.
  const asked = [
    ...new Set(
      requested
        .split(' ')
        .filter((scope) => scope !== '')
        .map((scope) => (ONEROSTER_SCOPES[scopeUri(scope)] ? scopeUri(scope) : scope)),
    ),
  ];
  if (asked.length === 0 || asked.some((scope) => !allowed.includes(scope))) return undefined;
  return asked;
}

/** Signs and reads tokens with one key (derived from the service key for this use alone). */
export class TokenSigner {
  constructor(private readonly key: Buffer) {}

  sign(claims: TokenClaims): string {
    const payload = Buffer.from(
      JSON.stringify({ c: claims.caller, v: claims.version, s: claims.scopes, x: claims.expiresAt }),
    ).toString('base64url');
    return `${TOKEN_PREFIX}${payload}.${this.mac(payload)}`;
  }

  /** The claims of a token this key signed that has not ended at `now`; undefined for any other. */
  verify(token: string, now: number): TokenClaims | undefined {
    if (token.length > MAX_TOKEN_LENGTH || !token.startsWith(TOKEN_PREFIX)) return undefined;
    const [payload, mac, extra] = token.slice(TOKEN_PREFIX.length).split('.');
    if (payload === undefined || mac === undefined || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const read = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      c: string;
      v: string;
      s: string[];
      x: number;
    };
    if (read.x <= now) return undefined;
    return { caller: read.c, version: read.v, scopes: read.s, expiresAt: read.x };
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`${TOKEN_PREFIX}${payload}`).digest('base64url');
  }
}

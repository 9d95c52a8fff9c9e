import type { Identity } from '../../access/caller-registry';
import { MAX_TOKEN_LENGTH, ONEROSTER_SCOPES } from '../../access/oauth-tokens';
import type { ProviderParts } from './provider-parts';

/** Who a request's bearer token speaks for, and with which scopes; or why it is refused. */
export type BearerAccess =
  | { readonly ok: true; readonly identity: Identity; readonly scopes: ReadonlySet<string> }
  | { readonly ok: false; readonly status: 401 | 403; readonly reason: string };

const BEARER = /^bearer +(\S+) *$/i;

/**
 * The access a request's `Authorization: Bearer` token gives, if it gives `needed` (any one of
 * those scopes). The token's caller is looked up as it is now: a revoked, expired or re-keyed one
 * refuses it (401), and a scope the caller's groups no longer allow counts for nothing (403).
 */
export function bearerAccess(
  authorization: string | undefined,
  parts: ProviderParts,
  needed: readonly string[],
): BearerAccess {
  const token =
    authorization === undefined || authorization.length > MAX_TOKEN_LENGTH + 7
      ? undefined
      : BEARER.exec(authorization)?.[1];
  if (token === undefined) return { ok: false, status: 401, reason: 'a bearer token from /oauth/token is needed' };
  const claims = parts.tokens.verify(token, parts.clock().getTime());
  const holder = claims ? parts.callers.secretHolder(claims.caller) : undefined;
  if (!claims || !holder || holder.version !== claims.version) {
    return { ok: false, status: 401, reason: 'the token is not valid (ended, or its client was revoked)' };
  }
  const grants = holder.identity.operations;
  const scopes = new Set(claims.scopes.filter((scope) => grants.grantsGroup(ONEROSTER_SCOPES[scope])));
  if (!needed.some((scope) => scopes.has(scope))) {
    return { ok: false, status: 403, reason: `the token's scopes do not include ${needed.join(' or ')}` };
  }
  return { ok: true, identity: holder.identity, scopes };
}

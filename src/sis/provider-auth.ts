import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import * as oauth from 'oauth4webapi';
import type { SisSettings, TokenAuthMethod } from '../config/sis-settings';
import { SyncFailure } from './sync-failure';

/**
 * How each request to the provider proves who is asking. OneRoster 1.1's REST binding signs every
 * request with OAuth 1.0a (HMAC-SHA256, the consumer key and secret, no token); 1.2 sends an
 * OAuth 2.0 bearer token got with the client-credentials grant, kept until shortly before it
 * expires and fetched again when the provider answers 401 (it may end a token early).
 */
export interface ProviderAuth {
  /** The Authorization header for a GET of `url`. */
  authorization(url: string): Promise<string>;
  /**
   * The provider answered 401 to a request sent with `authorization`: true when asking again may
   * do better (1.2: a new token is fetched, or was already, by a request in flight beside it);
   * false when it will not (1.1, or a token fetched after a refusal and refused as well).
   */
  refused(authorization: string): boolean;
}

/** The scopes of the rostering and gradebook services' read-only endpoints. */
export const OAUTH2_SCOPES = 'roster-core.readonly roster.readonly gradebook.readonly';
/** A token is fetched again this long before it expires, so that none expires between the check and the call. */
const EXPIRY_MARGIN_MS = 60_000;

export function providerAuth(settings: SisSettings, now: () => number = Date.now): ProviderAuth {
  return settings.version === '1.1' ? oauth1(settings) : oauth2(settings, now);
}

function oauth1(settings: SisSettings): ProviderAuth {
  const signer = new OAuth({
    consumer: { key: settings.clientId, secret: settings.clientSecret.reveal() },
    signature_method: 'HMAC-SHA256',
    hash_function: (base, key) => createHmac('sha256', key).update(base).digest('base64'),
  });
  return {
    authorization: async (url) => signer.toHeader(signer.authorize({ url, method: 'GET' })).Authorization,
    // A signature is refused for good: the key, the secret or the clock is wrong, and signing again changes nothing.
    refused: () => false,
  };
}

function oauth2(settings: SisSettings, now: () => number): ProviderAuth {
  const tokenUrl = settings.tokenUrl as string;
  const server: oauth.AuthorizationServer = { issuer: new URL(tokenUrl).origin, token_endpoint: tokenUrl };
  const client: oauth.Client = { client_id: settings.clientId };
  const insecure = new URL(tokenUrl).protocol === 'http:';
  let token: { value: string; renewAt: number; afterRefusal: boolean } | undefined;
  let refusedBefore = false;
  const fetchToken = async (): Promise<string> => {
    let response: Response;
    try {
      response = await oauth.clientCredentialsGrantRequest(
        server,
        client,
        clientAuthentication(settings.tokenAuth, settings.clientSecret.reveal()),
        new URLSearchParams({ scope: OAUTH2_SCOPES }),
        { signal: AbortSignal.timeout(settings.timeoutMs), [oauth.allowInsecureRequests]: insecure },
      );
    } catch (error) {
      throw new SyncFailure(`the token endpoint ${tokenUrl} did not answer (${describe(error)})`);
    }
    try {
      const result = await oauth.processClientCredentialsResponse(server, client, response);
      const lifetimeMs = (result.expires_in ?? 3600) * 1000;
      const renewAt = now() + Math.max(lifetimeMs - EXPIRY_MARGIN_MS, lifetimeMs / 2);
      token = { value: result.access_token, renewAt, afterRefusal: refusedBefore };
      refusedBefore = false;
      return result.access_token;
    } catch (error) {
      throw new SyncFailure(
        `the token endpoint ${tokenUrl} refused the client "${settings.clientId}" (${describe(error)}); ` +
          `${TOKEN_AUTH_SENT[settings.tokenAuth]} (SIS_TOKEN_AUTH=${settings.tokenAuth}): ` +
          `if the id and secret are right, try SIS_TOKEN_AUTH=${otherMethods(settings.tokenAuth)}`,
      );
    }
  };
  // Pages asked for together wait for one token rather than each fetching its own.
  let fetching: Promise<string> | undefined;
  return {
    authorization: async () => {
      if (token && now() < token.renewAt) return `Bearer ${token.value}`;
      fetching ??= fetchToken().finally(() => {
        fetching = undefined;
      });
      return `Bearer ${await fetching}`;
    },
    refused: (authorization) => {
      // Pages in flight together meet an ended token together: the first clears it, the others ask again with the next.
      if (!token || authorization !== `Bearer ${token.value}`) return true;
      // A token fetched because the last was refused, refused as well: the client itself is refused.
      if (token.afterRefusal) return false;
      token = undefined;
      refusedBefore = true;
      return true;
    },
  };
}

/** How each method sends the id and secret, in a refusal's words. */
const TOKEN_AUTH_SENT: Record<TokenAuthMethod, string> = {
  basic: 'they were sent as HTTP Basic, plain',
  'basic-encoded': 'they were sent as HTTP Basic, form-encoded first',
  post: 'they were sent in the form body',
};

function otherMethods(method: TokenAuthMethod): string {
  return (Object.keys(TOKEN_AUTH_SENT) as TokenAuthMethod[]).filter((other) => other !== method).join(' or ');
}

/**
 * The client's proof for the token request. oauth4webapi's ClientSecretBasic form-encodes the id
 * and secret first (RFC 6749 §2.3.1: `sis-client` goes as `sis%2Dclient`), which many token
 * endpoints do not decode; plain RFC 7617 Basic is what they read, and so the default.
 */
function clientAuthentication(method: TokenAuthMethod, secret: string): oauth.ClientAuth {
  if (method === 'basic-encoded') return oauth.ClientSecretBasic(secret);
  if (method === 'post') return oauth.ClientSecretPost(secret);
  return (_server, client, _body, headers) => {
    headers.set('authorization', `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}`);
  };
}

/** An oauth4webapi error as a short text: its OAuth error code, or its message (neither holds the secret). */
function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `${error.status} ${error.error}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `${error.status} ${error.message}`;
  if (error instanceof Error) return error.message.slice(0, 200);
  return String(error).slice(0, 200);
}

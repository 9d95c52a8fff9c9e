import type { Credentials } from '../../access/credentials';

/**
 * The client's id and secret in a token request (RFC 6749 §2.3.1): HTTP Basic, form-encoded as the
 * RFC asks or plain as most clients send them (a caller's name and secret hold no `%` or `+`, so a
 * Basic value holding either was form-encoded and is decoded), or `client_id` and `client_secret`
 * in the body. A request using both ways, or a malformed one, is `invalid_request`.
 */
export type ClientCredentials =
  | { readonly kind: 'presented'; readonly credentials: Extract<Credentials, { kind: 'basic' }> }
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly reason: string };

function formDecoded(text: string): string | undefined {
  if (!/[%+]/.test(text)) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function basicOf(header: string): ClientCredentials {
  const match = /^basic +([A-Za-z0-9+/=]+) *$/i.exec(header);
  if (!match) return { kind: 'invalid', reason: 'the Authorization header is not HTTP Basic' };
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const name = colon <= 0 ? undefined : formDecoded(decoded.slice(0, colon));
  const secret = colon <= 0 ? undefined : formDecoded(decoded.slice(colon + 1));
  if (name === undefined || secret === undefined) return { kind: 'invalid', reason: 'malformed Basic credentials' };
  return { kind: 'presented', credentials: { kind: 'basic', name, secret } };
}

export function clientCredentialsOf(authorization: string | undefined, form: URLSearchParams): ClientCredentials {
  const id = form.get('client_id');
  const secret = form.get('client_secret');
  const inBody = id !== null || secret !== null;
  if (authorization !== undefined && authorization !== '') {
    if (inBody) return { kind: 'invalid', reason: 'client credentials both in the header and in the body' };
    return basicOf(authorization);
  }
  if (!inBody) return { kind: 'none' };
  if (id === null || id === '' || secret === null) {
    return { kind: 'invalid', reason: 'client_id and client_secret go together' };
  }
  return { kind: 'presented', credentials: { kind: 'basic', name: id, secret } };
}

/**
 * What a caller presented to prove who it is. Basic (every binding) and WS-Security
 * UsernameToken (SOAP) name the caller and carry its secret; a bearer token (JSON) is the secret
 * alone, which names its caller. A PasswordDigest token carries no secret but a hash of it with a
 * nonce and a time, which only a service that can recover the secret can check.
 */
export type Credentials =
  | { readonly kind: 'basic'; readonly name: string; readonly secret: string }
  | { readonly kind: 'bearer'; readonly secret: string }
  | {
      readonly kind: 'username-token';
      readonly name: string;
      readonly password: string;
      readonly digest: boolean;
      /** Base64, as sent; undefined when the token has none. */
      readonly nonce: string | undefined;
      /** xsd:dateTime, as sent; undefined when the token has none. */
      readonly created: string | undefined;
    };

/** A credential that could not even be read (a malformed Authorization header, a token without a name). */
export const UNREADABLE: unique symbol = Symbol('unreadable credentials');

/** The credentials of an Authorization header: Basic or Bearer, undefined for none, UNREADABLE for garbage. */
export function credentialsOfAuthorization(header: string | undefined): Credentials | typeof UNREADABLE | undefined {
  if (header === undefined || header === '') return undefined;
  const space = header.indexOf(' ');
  const scheme = (space === -1 ? header : header.slice(0, space)).toLowerCase();
  const value = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme === 'bearer') return value === '' ? UNREADABLE : { kind: 'bearer', secret: value };
  if (scheme !== 'basic') return UNREADABLE;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return UNREADABLE;
  return { kind: 'basic', name: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

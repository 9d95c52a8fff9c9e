import { createHash, timingSafeEqual } from 'node:crypto';
import type { Credentials } from './credentials';

/**
 * The rules of a WS-Security UsernameToken: its replay rules and its PasswordDigest. A token does
 * not cover the message body, so a captured one would let anyone repeat any call its caller may
 * make: each token is taken once (its nonce is remembered) and only near its Created time.
 */

/** Nonce sizes taken: WS-Security clients send 16 (WCF, zeep, node-soap) or 20 bytes (SHA-1 of something). */
export const MIN_NONCE_BYTES = 16;
export const MAX_NONCE_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of a nonce written as canonical base64, undefined for any other spelling: whitespace,
 * missing or extra padding, the base64url alphabet, trailing characters, padding bits that are not
 * zero. Node's decoder skips all of these, so that one nonce could be spelt many ways, each a
 * different text decoding to the same bytes; only one spelling of each byte string is taken.
 */
export function nonceBytes(text: string): Buffer | undefined {
  const longest = Math.ceil(MAX_NONCE_BYTES / 3) * 4;
  if (text.length === 0 || text.length > longest || text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length < MIN_NONCE_BYTES || bytes.length > MAX_NONCE_BYTES) return undefined;
  return bytes.toString('base64') === text ? bytes : undefined;
}

/**
 * The time of a token's Created, when the token is taken now: undefined when it is unreadable,
 * older than the window, or further ahead than the clocks of two machines may differ (`skewMs`),
 * as a later Created would keep a captured token alive for longer. A token is taken until its
 * Created plus the window, so its nonce is remembered that long.
 */
export function createdTime(created: string, now: number, windowMs: number, skewMs: number): number | undefined {
  const time = Date.parse(created);
  if (!Number.isFinite(time) || time > now + skewMs || time < now - windowMs) return undefined;
  return time;
}

/** A UsernameToken as a caller presented it. */
export type UsernameToken = Extract<Credentials, { kind: 'username-token' }>;

/**
 * Whether a PasswordDigest token was made with this secret: Base64(SHA-1(nonce + created +
 * secret)), the nonce decoded from Base64. A token without a nonce or a Created cannot match.
 */
export function digestMatches(token: UsernameToken, nonce: Buffer | undefined, secret: string): boolean {
  if (nonce === undefined || token.created === undefined) return false;
  const expected = createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(token.created + secret, 'utf8')]))
    .digest();
  const given = Buffer.from(token.password, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

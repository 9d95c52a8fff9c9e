import { createHash, randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Callers' secrets. A secret is "<caller name>.<43 random base64url characters>" (256 bits), so
 * that a bearer token alone says whose it is; it is printed once and stored only as an scrypt
 * hash, which costs tens of milliseconds to check: verified secrets are remembered (see the
 * registry), so a call costs a lookup, not a hash.
 */

/** A caller's name: letters, digits, "_" and "-", so that it fits in a secret, a log line and a header. */
export const CALLER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const SCRYPT: ScryptOptions & { N: number; r: number; p: number } = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const HASH_BYTES = 32;

function scryptAsync(secret: string, salt: Buffer, options: typeof SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export function newSecret(callerName: string): string {
  return `${callerName}.${randomBytes(32).toString('base64url')}`;
}

/** The caller a secret names, or undefined when it is not of the secrets' form. */
export function callerNameOf(secret: string): string | undefined {
  const dot = secret.indexOf('.');
  const name = dot === -1 ? '' : secret.slice(0, dot);
  return CALLER_NAME.test(name) ? name : undefined;
}

/**
 * A few bits of a fast hash of the secret, kept beside its slow hash: a secret that shows them is
 * very likely the right one (a guess shows them once in four billion), so its check goes ahead of a
 * flood of wrong ones. They tell nothing useful of the secret, which is 256 random bits.
 */
function hintOf(secret: string): string {
  return createHash('sha256').update(secret).digest().subarray(0, 4).toString('base64url');
}

/** scrypt$N$r$p$salt$hash$hint, salt and hash in base64 (hashes made before the hint have none). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, SCRYPT);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64'),
    hash.toString('base64'),
    hintOf(secret),
  ].join('$');
}

/** Whether the secret shows the hint kept with the hash: then it is worth checking first. */
export function showsHint(secret: string, stored: string): boolean {
  const hint = stored.split('$')[6];
  return hint !== undefined && hint === hintOf(secret);
}

/**
 * A hash of the secrets' form that no secret matches: a name no caller holds, or a caller without a
 * secret, is checked against it, so that its refusal costs what a known caller's wrong secret costs
 * and timing does not tell which names exist.
 */
export const UNMATCHABLE_HASH = [
  'scrypt',
  SCRYPT.N,
  SCRYPT.r,
  SCRYPT.p,
  Buffer.alloc(16).toString('base64'),
  Buffer.alloc(HASH_BYTES).toString('base64'),
].join('$');

export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem };
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64'), options);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

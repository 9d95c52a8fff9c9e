import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files';

/**
 * Seals outbox payloads with AES-256-GCM, so that what the store holds (an authentication code in
 * an SMS text, above all) is never readable in clear by whoever reads the database or its
 * backups. The key is the OUTBOX_KEY setting, or else a key file created once in the data
 * folder; processes sharing one PostgreSQL store must share the key (set OUTBOX_KEY).
 */
export interface PayloadSealer {
  seal(text: string): string;
  open(sealed: string): string;
}

const KEY_FILE_NAME = 'outbox.key';
const VERSION = 'v1';

export function payloadSealer(key: Buffer): PayloadSealer {
  if (key.length !== 32) throw new Error('the outbox key must be 32 bytes');
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const encrypted = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [
        VERSION,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        encrypted.toString('base64'),
      ].join('.');
    },
    open(sealed) {
      const [version, iv, tag, encrypted] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || encrypted === undefined)
        throw new Error('the payload is not sealed by this service');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** The key file the service creates in the data folder when OUTBOX_KEY is unset. */
export function outboxKeyFile(dataDirectory: string): string {
  return join(dataDirectory, KEY_FILE_NAME);
}

/** The configured key, or the data folder's key file, created (readable by its owner only) when missing. */
export function loadOutboxKey(configured: string | undefined, dataDirectory: string): Buffer {
  if (configured) return Buffer.from(configured, 'hex');
  const file = outboxKeyFile(dataDirectory);
  if (!existsSync(file)) {
    mkdirSync(dataDirectory, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use that one.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readKeyFile(file);
}

/** The key held by this process, without making one: OUTBOX_KEY, else the data folder's key file if there is one. */
export function heldOutboxKey(
  configured: string | undefined,
  dataDirectory: string,
): { readonly key: Buffer; readonly origin: string } | undefined {
  if (configured) return { key: Buffer.from(configured, 'hex'), origin: 'OUTBOX_KEY' };
  const file = resolve(outboxKeyFile(dataDirectory));
  return existsSync(file) ? { key: readKeyFile(file), origin: file } : undefined;
}

function readKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${file} does not hold a 64-digit hexadecimal key`);
  return Buffer.from(text, 'hex');
}

/**
 * A short name of a key that tells two keys apart and reveals nothing of either: 16 hexadecimal
 * digits derived from it as a key of its own use is.
 */
export function keyFingerprint(serviceKey: Buffer): string {
  return keyFor(serviceKey, 'fingerprint').subarray(0, 8).toString('hex');
}

/**
 * A key of its own for each use of the service key (HKDF-SHA-256), so that what one use seals no
 * other use can open, from the one key operators keep.
 */
export function keyFor(serviceKey: Buffer, purpose: 'caller-digest-secrets' | 'fingerprint' | 'oauth-tokens'): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceKey, Buffer.alloc(0), purpose, 32));
}

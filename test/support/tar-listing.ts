import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The entries of a .tar.gz as its headers state them, read here rather than through tar's own
 * listing: what an attacker would look at is what the archive says (names, types, modes, owners,
 * link targets), not what one tar program makes of it when it unpacks.
 */
export interface TarEntry {
  readonly path: string;
  /** '0' a file, '1' a hard link, '2' a symbolic link, '5' a folder; anything else is unusual. */
  readonly type: string;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
  readonly linkTarget: string;
  /** The file's bytes (empty for anything but a file). */
  readonly content: Buffer;
}

const BLOCK = 512;

function text(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function octal(header: Buffer, offset: number, length: number): number {
  const digits = text(header, offset, length).trim();
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

/** The pax extended header's records (`LEN key=value\n`), of which a path and a link path matter here. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (!(length > 0)) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    records.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return records;
}

export function readTarGz(file: string): TarEntry[] {
  const archive = gunzipSync(readFileSync(file));
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let longLink: string | undefined;
  let at = 0;
  while (at + BLOCK <= archive.length) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12);
    const type = text(header, 156, 1) || '0';
    const data = archive.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    // GNU long names and pax headers describe the entry that follows them.
    if (type === 'L' || type === 'K') {
      const value = data.toString('utf8').replace(/\0+$/, '');
      if (type === 'L') longName = value;
      else longLink = value;
      continue;
    }
    if (type === 'x') {
      const records = paxRecords(data);
      longName = records.get('path') ?? longName;
      longLink = records.get('linkpath') ?? longLink;
      continue;
    }
    const prefix = text(header, 345, 155);
    const shortName = text(header, 0, 100);
    entries.push({
      path: longName ?? (prefix === '' ? shortName : `${prefix}/${shortName}`),
      type,
      mode: octal(header, 100, 8),
      uid: octal(header, 108, 8),
      gid: octal(header, 116, 8),
      size,
      linkTarget: longLink ?? text(header, 157, 100),
      content: type === '0' ? data : Buffer.alloc(0),
    });
    longName = undefined;
    longLink = undefined;
  }
  return entries;
}

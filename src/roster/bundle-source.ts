import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { BundleBudget, type BundleLimits, NO_BUNDLE_LIMITS } from './bundle-limits';

/**
 * The files of a bundle, from a folder or a .zip. Names are matched without regard to case, as SIS
 * exports differ (users.csv, Users.csv). A zip's entries may sit at its root or in one folder;
 * entries with absolute names or `..` are refused, never followed.
 */
export interface Bundle {
  readonly location: string;
  /** The file's name as found, or undefined when the bundle has none by that name. */
  find(name: string): string | undefined;
  /** Bytes, for progress. */
  size(name: string): number;
  open(name: string): Promise<Readable>;
  close(): Promise<void>;
}

export class BundleError extends Error {}

/** `limits` bound the bytes read (inflated) and the time (see bundle-limits.ts). */
export async function openBundle(path: string, limits: BundleLimits = NO_BUNDLE_LIMITS): Promise<Bundle> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new BundleError(`${path}: no such folder or file`);
  const budget = new BundleBudget(path, limits);
  if (info.isDirectory()) return openFolder(path, budget);
  if (path.toLowerCase().endsWith('.zip')) return openZip(path, budget);
  throw new BundleError(`${path}: a bundle is a folder or a .zip file`);
}

function finder(names: readonly string[]): (name: string) => string | undefined {
  const byLowerCase = new Map(names.map((name) => [name.toLowerCase(), name]));
  return (name) => byLowerCase.get(name.toLowerCase());
}

async function openFolder(path: string, budget: BundleBudget): Promise<Bundle> {
  const entries = await readdir(path, { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  const sizes = new Map<string, number>();
  for (const file of files) sizes.set(file, (await stat(join(path, file))).size);
  budget.checkDeclared([...sizes].map(([name, size]) => ({ name, size })));
  return {
    location: path,
    find: finder(files),
    size: (name) => sizes.get(name) ?? 0,
    open: async (name) => budget.counted(createReadStream(join(path, name)), { name }),
    close: async () => {},
  };
}

async function openZip(path: string, budget: BundleBudget): Promise<Bundle> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(new BundleError(`${path}: not a readable zip file (${error.message})`)) : resolve(opened),
    ),
  );
  const entries = new Map<string, yauzl.Entry>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = entry.fileName;
      const depth = name.split('/').filter(Boolean).length;
      const unsafe = name.startsWith('/') || name.split(/[\\/]/).includes('..') || /^[a-zA-Z]:/.test(name);
      if (!unsafe && !name.endsWith('/') && depth <= 2) entries.set(basename(name), entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (error: Error) => reject(new BundleError(`${path}: ${error.message}`)));
    zip.readEntry();
  });
  try {
    budget.checkDeclared(
      [...entries].map(([name, entry]) => ({
        name,
        size: entry.uncompressedSize,
        compressedSize: entry.compressedSize,
      })),
    );
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    location: path,
    find: finder([...entries.keys()]),
    size: (name) => entries.get(name)?.uncompressedSize ?? 0,
    open: (name) =>
      new Promise((resolve, reject) => {
        const entry = entries.get(name);
        if (!entry) return reject(new BundleError(`${path}: no ${name}`));
        zip.openReadStream(entry, (error, stream) =>
          error ? reject(error) : resolve(budget.counted(stream, { name, compressedSize: entry.compressedSize })),
        );
      }),
    close: async () => zip.close(),
  };
}

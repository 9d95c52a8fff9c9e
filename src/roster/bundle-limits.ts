import { BundleStop } from './bundle-stop';
import { Transform, type Readable } from 'node:stream';

/**
 * How much a bundle may inflate to and how long reading it may take, so that a small zip that
 * inflates to gigabytes (or a bundle that is merely enormous) cannot keep an import busy for
 * minutes: a zip whose entries declare more than the limit is refused before a byte is inflated,
 * and as declared sizes can lie, the bytes are counted again as they are read, with the time.
 * One entry that inflates to more than MAX_INFLATION_RATIO times its compressed size (past a
 * floor, so that small files are never refused) is refused as a zip bomb: CSV compresses about
 * ten times, a bomb hundreds.
 */
export interface BundleLimits {
  /** Bytes the bundle's files may hold together, inflated. */
  readonly maxBytes: number;
  /** When reading must be over (ms since the epoch); Infinity for no bound. */
  readonly deadline: number;
  readonly now: () => number;
}

export const NO_BUNDLE_LIMITS: BundleLimits = {
  maxBytes: Number.POSITIVE_INFINITY,
  deadline: Number.POSITIVE_INFINITY,
  now: Date.now,
};

export const MAX_INFLATION_RATIO = 100;
const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

/** A bound the bundle passed: the import stops, and writes nothing. */
export class BundleLimitError extends BundleStop {}

export interface DeclaredEntry {
  readonly name: string;
  readonly size: number;
  /** Undefined for a file of a folder, which is not compressed. */
  readonly compressedSize?: number;
}

/** One bundle's reading against its limits: every file's bytes count towards one total. */
export class BundleBudget {
  private total = 0;

  constructor(
    private readonly location: string,
    private readonly limits: BundleLimits,
  ) {}

  /** Refuses a bundle by the sizes its entries declare, before any is read. */
  checkDeclared(entries: readonly DeclaredEntry[]): void {
    const declared = entries.reduce((sum, entry) => sum + entry.size, 0);
    if (declared > this.limits.maxBytes) throw this.tooLarge(`declares ${declared} bytes`);
    for (const entry of entries) this.checkRatio(entry.name, entry.size, entry.compressedSize);
  }

  /** The file's stream, counted: it fails with a BundleLimitError at the first byte past a bound. */
  counted(source: Readable, entry: Omit<DeclaredEntry, 'size'>): Readable {
    let read = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        read += chunk.length;
        this.total += chunk.length;
        try {
          if (this.total > this.limits.maxBytes)
            throw this.tooLarge(`inflates to more than ${this.limits.maxBytes} bytes`);
          this.checkRatio(entry.name, read, entry.compressedSize);
          if (this.limits.now() > this.limits.deadline) {
            throw new BundleLimitError(
              `${this.location}: reading it took longer than IMPORT_TIME_LIMIT_SECONDS allows`,
            );
          }
        } catch (error) {
          done(error as Error);
          return;
        }
        done(null, chunk);
      },
    });
    source.on('error', (error) => counter.destroy(error));
    counter.on('close', () => source.destroy());
    return source.pipe(counter);
  }

  private checkRatio(name: string, size: number, compressedSize: number | undefined): void {
    if (compressedSize === undefined || size <= RATIO_FLOOR_BYTES) return;
    if (size > MAX_INFLATION_RATIO * Math.max(compressedSize, 1)) {
      throw new BundleLimitError(
        `${this.location}: ${name} inflates more than ${MAX_INFLATION_RATIO} times its compressed size (a zip bomb?)`,
      );
    }
  }

  private tooLarge(what: string): BundleLimitError {
    return new BundleLimitError(`${this.location}: ${what}, more than IMPORT_MAX_BYTES (${this.limits.maxBytes})`);
  }
}

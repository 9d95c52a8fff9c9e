import { EventEmitter } from 'node:events';
import { close, createReadStream, open, read } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Bundle } from '../roster/bundle-source';
import { BundleStop } from '../roster/bundle-stop';

/**
 * The sync's spooled bundle as the import reads it while it is still being written, so that the
 * import's work fills the time the reading waits on the provider. A file is opened once it is
 * whole; the last one (results.csv, millions of rows) is read as it grows and ends only when the
 * whole reading is done and accepted (`seal`). When the reading fails, every file still awaited
 * fails with it, and the import writes nothing.
 */

/** The growing file's records gained a column after its header was written: read it again once whole. */
export class ColumnsGrew extends BundleStop {}

/** The reading failed; the import stops (the sync reports the reading's own error). */
export class ReadingFailed extends BundleStop {}

class FileState extends EventEmitter {
  bytes = 0;
  whole = false;
  error: Error | undefined;

  change(): void {
    this.emit('change');
  }
}

/** Bytes read from the growing file at a time. */
const CHUNK_BYTES = 256 * 1024;

export class LiveBundle implements Bundle {
  private readonly files = new Map<string, FileState>();
  private readonly names = new Map<string, string>();
  private readonly streams = new Set<Readable>();
  private sealed = false;

  constructor(
    readonly location: string,
    names: readonly string[],
    /** The file read as it grows. */
    private readonly growing: string,
  ) {
    for (const name of names) {
      this.files.set(name.toLowerCase(), new FileState());
      this.names.set(name.toLowerCase(), name);
    }
  }

  find(name: string): string | undefined {
    return this.names.get(name.toLowerCase());
  }

  size(name: string): number {
    return this.state(name).bytes;
  }

  async open(name: string): Promise<Readable> {
    const state = this.state(name);
    const path = join(this.location, this.find(name) ?? name);
    if (name.toLowerCase() === this.growing.toLowerCase()) return this.track(growingFile(path, state));
    if (!state.whole && !state.error) {
      await new Promise<void>((resolve) => {
        const check = () => {
          if (!state.whole && !state.error) return;
          state.off('change', check);
          resolve();
        };
        state.on('change', check);
      });
    }
    if (state.error) throw state.error;
    return this.track(createReadStream(path));
  }

  /** Bytes of `name` written so far; a growing file whose columns grew fails its reader. */
  grown(name: string, bytes: number, grew: boolean): void {
    const state = this.state(name);
    state.bytes = bytes;
    if (grew && name.toLowerCase() === this.growing.toLowerCase()) {
      state.error ??= new ColumnsGrew(`${name}: records added columns after its header`);
    }
    state.change();
  }

  /** `name` is whole on disk (under its final header). The growing file waits for `seal`. */
  whole(name: string, bytes: number): void {
    const state = this.state(name);
    state.bytes = bytes;
    if (name.toLowerCase() !== this.growing.toLowerCase() || this.sealed) state.whole = true;
    state.change();
  }

  /** The reading is whole and accepted: the growing file ends where it is. */
  seal(): void {
    this.sealed = true;
    const state = this.state(this.growing);
    state.whole = true;
    state.change();
  }

  /** The reading failed: whatever is awaited fails. */
  fail(reason: unknown): void {
    for (const state of this.files.values()) {
      if (state.whole) continue;
      state.error ??= new ReadingFailed(`the reading failed: ${(reason as Error)?.message ?? String(reason)}`);
      state.change();
    }
  }

  async close(): Promise<void> {
    for (const stream of this.streams) stream.destroy();
    this.streams.clear();
  }

  private state(name: string): FileState {
    const state = this.files.get(name.toLowerCase());
    if (!state) throw new Error(`${this.location}: no ${name}`);
    return state;
  }

  private track(stream: Readable): Readable {
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
    return stream;
  }
}

/** A file read as far as it is written, waiting for more until it is whole. */
function growingFile(path: string, state: FileState): Readable {
  let fd: number | undefined;
  let position = 0;
  let waiting = false;
  const stream = new Readable({
    highWaterMark: CHUNK_BYTES,
    construct(callback) {
      open(path, 'r', (error, opened) => {
        fd = opened;
        callback(error);
      });
    },
    read() {
      pump();
    },
    destroy(error, callback) {
      state.off('change', onChange);
      if (fd === undefined) return callback(error);
      close(fd, () => callback(error));
      fd = undefined;
    },
  });
  function onChange(): void {
    if (!waiting) return;
    waiting = false;
    state.off('change', onChange);
    pump();
  }
  function pump(): void {
    if (state.error) return void stream.destroy(state.error);
    if (fd === undefined) return;
    const available = state.bytes - position;
    if (available <= 0) {
      if (state.whole) return void stream.push(null);
      waiting = true;
      state.on('change', onChange);
      return;
    }
    const buffer = Buffer.allocUnsafe(Math.min(available, CHUNK_BYTES));
    read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => {
      if (error) return void stream.destroy(error);
      // Counted bytes are on disk before they are counted; none read would be a file cut short.
      if (bytesRead === 0) return void stream.destroy(new ReadingFailed(`${path}: shorter than written`));
      position += bytesRead;
      stream.push(buffer.subarray(0, bytesRead));
    });
  }
  return stream;
}

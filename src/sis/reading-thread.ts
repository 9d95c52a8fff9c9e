import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import type { SisSettings } from '../config/sis-settings';
import { startThread } from '../lib/start-thread';
import { COLLECTIONS } from './collections';
import { LiveBundle } from './live-bundle';
import type { ProviderRead } from './read-provider';
import type { FromReading, ReadingSettings, ToReading } from './reading-worker';
import type { HeldRecords } from './school-filter';
import { SyncFailure } from './sync-failure';

/** The reading's thread, beside this file. */
const WORKER_FILE = join(__dirname, `reading-worker${extname(__filename)}`);
/**
 * The thread holds a few pages and the sourcedIds it remembers (at most 250,000 a file,
 * spooled-bundle.ts), not the school. Its young generation is larger than V8's default, so that a
 * page's records die young rather than being moved to the old generation and collected there; it
 * ends before the import writes, where the sync's memory peaks.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 32 };

export interface ReadingDone extends ProviderRead {
  readonly duplicates: number;
  /** The first records sent twice, as `collection "sourcedId"`. */
  readonly duplicated: readonly string[];
}

/**
 * The sync's side of its reading thread (reading-worker.ts): the spooled bundle, offered to the
 * import file by file as the thread writes it (live-bundle.ts), and what the reading came to.
 */
export class ReadingThread {
  readonly bundle: LiveBundle;
  /** Settles when the reading is done (every file whole) or failed. */
  readonly done: Promise<ReadingDone>;
  /** Requests sent so far, tries included. */
  requests = 0;
  private readonly worker: Worker;
  private settle!: { resolve: (done: ReadingDone) => void; reject: (error: Error) => void };
  private ended = false;

  private constructor(
    readonly folder: string,
    settings: ReadingSettings,
    private readonly wait: (ms: number) => Promise<unknown>,
    /** Called as pages arrive (the sync renews its lease); a rejection stops the reading. */
    private readonly alive: () => Promise<void>,
  ) {
    this.bundle = new LiveBundle(
      folder,
      ['manifest.csv', ...COLLECTIONS.map((collection) => `${collection.name}.csv`)],
      'results.csv',
    );
    this.done = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.done.catch(() => undefined);
    this.worker = startThread(WORKER_FILE, settings, THREAD_LIMITS);
    this.worker.on('message', (message: FromReading) => this.heard(message));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the reading's thread stopped (exit code ${code})`)));
  }

  static async start(
    sis: SisSettings,
    options: {
      mode: 'bulk' | 'delta';
      since: string | undefined;
      keepResults: boolean;
      held?: HeldRecords;
      wait?: (ms: number) => Promise<unknown>;
      alive: () => Promise<void>;
    },
  ): Promise<ReadingThread> {
    const folder = await mkdtemp(join(tmpdir(), 'sis-sync-'));
    const settings: ReadingSettings = {
      sis: { ...sis, clientSecret: sis.clientSecret.reveal() },
      folder,
      mode: options.mode,
      since: options.since,
      keepResults: options.keepResults,
      held: options.held,
    };
    return new ReadingThread(folder, settings, options.wait ?? sleep, options.alive);
  }

  /** Stops the reading (the import failed): `done` fails with `reason`. */
  stop(reason: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.bundle.fail(reason);
    this.settle.reject(reason);
    this.worker.terminate().catch(() => undefined);
  }

  /** Stops the thread and removes the bundle. */
  async remove(): Promise<void> {
    this.stop(new Error('the sync ended'));
    await this.worker.terminate();
    await rm(this.folder, { recursive: true, force: true });
  }

  private heard(message: FromReading): void {
    if (this.ended) return;
    switch (message.kind) {
      case 'ready':
        this.bundle.whole('manifest.csv', 0);
        return;
      case 'grown':
        // roles.csv is not declared (1.2 users carry their roles): the import does not read it.
        if (message.name !== 'roles') this.bundle.grown(`${message.name}.csv`, message.bytes, message.grew);
        this.alive().catch((error) => this.stop(error));
        return;
      case 'whole':
        if (message.name !== 'roles') this.bundle.whole(`${message.name}.csv`, message.bytes);
        return;
      case 'wait':
        this.wait(message.ms).then(
          () => this.worker.postMessage({ kind: 'waited', id: message.id } satisfies ToReading),
          (error) => this.stop(error),
        );
        return;
      case 'done':
        this.requests = message.requests;
        this.ended = true;
        // Its heap is let go at once: the import's write, still to come, is where the sync's memory peaks.
        this.worker.terminate().catch(() => undefined);
        this.settle.resolve({
          records: message.records,
          markedLineItems: message.markedLineItems,
          results: message.results,
          duplicates: message.duplicates,
          duplicated: message.duplicated,
        });
        return;
      case 'failed':
        this.requests = message.requests;
        this.stop(message.failure ? new SyncFailure(message.message) : new Error(message.message));
    }
  }
}

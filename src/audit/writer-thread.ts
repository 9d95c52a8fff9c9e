import type { Worker } from 'node:worker_threads';
import { log } from '../lib/log';
import { startThread } from '../lib/start-thread';
import type { FromWriter, ToWriter } from './audit-writer';

/** A writer that dies sooner than this after starting is started again after a pause, not at once. */
const QUICK_DEATH_MS = 5_000;
const RESTART_PAUSE_MS = 1_000;

/** What the shared thread asks of a trail that writes through it. */
export interface WriterClient {
  /** What the writer says of this trail's batches. */
  heard(message: FromWriter): void;
  /** A writer was started in place of one that died: attach again, and send every batch not confirmed. */
  writerRestarted(): void;
}

/**
 * The audit writer thread of a process, shared by the trails of every open school (an idle thread
 * costs megabytes; a district opens many schools). It starts with the first trail, and ends once the
 * last has left; a thread that dies is replaced and each trail sends its unconfirmed batches again.
 * Referenced (the process waits for it) only while a trail is closing, as that trail's last batch
 * must be written before the process ends.
 */
export class WriterThread {
  private worker: Worker | undefined;
  private startedAt = 0;
  private restarting = false;
  private readonly clients = new Map<number, WriterClient>();
  /** Trails closing now: while there are any, the thread is referenced. */
  private closingTrails = 0;
  private exited: Promise<void> = Promise.resolve();
  /** Trails leaving, each resolved once the thread has closed its connection (or died meanwhile). */
  private readonly leaving = new Map<number, () => void>();

  constructor(private readonly file: string) {}

  /** Writes for `client` from now on, as trail `trail`. */
  join(trail: number, client: WriterClient): void {
    this.clients.set(trail, client);
    if (!this.worker && !this.restarting) this.start();
  }

  /** Sends a message for a trail; one sent while the thread is being replaced is sent again by `writerRestarted`. */
  post(message: ToWriter): void {
    this.worker?.postMessage(message);
  }

  /** A trail starts closing: the process waits for the thread until it has left. */
  holdProcess(): void {
    this.closingTrails += 1;
    this.worker?.ref();
  }

  /**
   * A trail leaves, once its last batch is sent: its connection is closed by the thread (or the
   * thread died meanwhile, its batches left in the journal). When it was the last, the thread is
   * told to end, and awaited, as a single school awaited its own writer.
   */
  async leave(trail: number): Promise<void> {
    const worker = this.worker;
    if (worker) {
      await new Promise<void>((resolve) => {
        this.leaving.set(trail, resolve);
        worker.postMessage({ kind: 'detach', trail } satisfies ToWriter);
      });
    }
    this.clients.delete(trail);
    this.closingTrails -= 1;
    const current = this.worker;
    if (this.clients.size > 0 || !current) {
      if (this.closingTrails === 0) current?.unref();
      return;
    }
    this.worker = undefined;
    current.postMessage({ kind: 'close' } satisfies ToWriter);
    await this.exited;
  }

  private start(): void {
    this.startedAt = Date.now();
    const worker = startThread(this.file, undefined);
    this.worker = worker;
    if (this.closingTrails === 0) worker.unref();
    worker.on('message', (message: FromWriter) => this.heard(message));
    worker.on('error', (error) => log.error('the audit trail writer failed', { error: error.message }));
    this.exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        resolve();
        // A thread told to end is no longer this.worker; one that exits otherwise died.
        if (this.worker === worker) this.died(code);
      });
    });
  }

  private heard(message: FromWriter): void {
    if (message.kind !== 'detached') {
      this.clients.get(message.trail)?.heard(message);
      return;
    }
    this.leaving.get(message.trail)?.();
    this.leaving.delete(message.trail);
  }

  /** A writer that died is replaced, and each trail gives it every batch it had not confirmed. */
  private died(code: number): void {
    this.worker = undefined;
    // Trails leaving have nothing more to wait for: what they had not written stays in their journal.
    for (const left of this.leaving.values()) left();
    this.leaving.clear();
    log.error('the audit trail writer stopped; starting another', { code, trails: this.clients.size });
    const restart = () => {
      this.restarting = false;
      if (this.clients.size === 0) return;
      this.start();
      for (const client of [...this.clients.values()]) client.writerRestarted();
    };
    this.restarting = true;
    if (Date.now() - this.startedAt < QUICK_DEATH_MS) setTimeout(restart, RESTART_PAUSE_MS).unref();
    else restart();
  }
}

const threads = new Map<string, WriterThread>();

/** The process's writer thread running `file` (a test gives a writer that dies). */
export function writerThreadOf(file: string): WriterThread {
  let thread = threads.get(file);
  if (!thread) {
    thread = new WriterThread(file);
    threads.set(file, thread);
  }
  return thread;
}

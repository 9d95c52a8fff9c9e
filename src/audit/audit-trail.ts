import { extname, join } from 'node:path';
import { log } from '../lib/log';
import type { StoreSettings } from '../store/open-store';
import { AuditJournal, JOURNAL_FOLDER, type JournalSegment } from './audit-journal';
import { type AuditRecord, journalLine } from './audit-lines';
import type { FromWriter, ToWriter, WriterSettings } from './audit-writer';
import { type WriterClient, type WriterThread, writerThreadOf } from './writer-thread';

export type { AuditRecord } from './audit-lines';

export interface AuditTrailSettings {
  readonly flushMs: number;
  readonly retentionDays: number;
  /** The district school whose trail this is (its sourcedId), named by its entries and log lines. */
  readonly school?: string;
}

/** Calls held at most between writes; past it they are sent to the writer at once. */
const MAX_BUFFERED = 5_000;
/**
 * Calls held in memory while the store cannot be written; beyond it the oldest batches are let go
 * from memory, and said so, but stay in their journal segments, which the next start moves.
 */
const MAX_HELD = 50_000;

/** The writer's file, beside this one. */
const WRITER_FILE = join(__dirname, `audit-writer${extname(__filename)}`);

/** Each trail of the process, as the shared writer thread knows it. */
let lastTrail = 0;

interface Batch extends JournalSegment {
  readonly id: number;
}

/** An answer waiting for the journal: written once its lines are in the file, or failed when they cannot be. */
interface HeldAnswer {
  readonly send: () => void;
  readonly fail: (error: unknown) => void;
}

/**
 * The audit trail of calls that returned personal data or caused a message or a document. What a
 * call pays for it is a line appended to memory and to this process's journal file before its
 * answer leaves (audit-journal.ts): a killed process loses no answered call. Every AUDIT_FLUSH_MS
 * (at least once a second), and when the process stops, the journal's segment is closed and sent
 * to the writer, the process's one thread shared by every open school's trail, with its own
 * connection to this trail's store (audit-writer.ts, writer-thread.ts), which writes it as one
 * batch; batches it has not confirmed are kept, and sent again to a writer started in place of one
 * that died or to the same one once the store is back. A new process first moves the segments of
 * processes that are gone.
 */
export class AuditTrail implements WriterClient {
  private readonly journal: AuditJournal;
  private readonly writerSettings: WriterSettings;
  private readonly writer: WriterThread;
  private readonly id = ++lastTrail;
  private readonly school: string | undefined;
  private timer: NodeJS.Timeout;
  private sequence = 0;
  private nextBatch = 0;
  /** From the last flush of `close`: a writer started in place of one that died is sent nothing of this trail. */
  private closing = false;
  /** Sent, or to be sent again, and not yet confirmed written. */
  private readonly unconfirmed = new Map<number, Batch>();
  /** Resolved when the batch of that id has been answered (written or failed). */
  private readonly answered = new Map<number, () => void>();
  /** Answers held until the journal lines of this turn of the event loop are written. */
  private held: HeldAnswer[] = [];

  /** `writerFile`: the writer thread's code; a test gives one that dies. */
  constructor(store: StoreSettings, settings: AuditTrailSettings, writerFile = WRITER_FILE) {
    this.journal = new AuditJournal(join(store.dataDirectory, JOURNAL_FOLDER));
    this.writerSettings = {
      store: { databaseUrl: store.databaseUrl, dataDirectory: store.dataDirectory },
      retentionDays: settings.retentionDays,
      school: settings.school ?? null,
    };
    this.school = settings.school;
    this.writer = writerThreadOf(writerFile);
    this.writer.join(this.id, this);
    this.attach();
    for (const orphan of this.journal.claimOrphans()) {
      log.info('audit journal of a stopped process moved to the trail', {
        school: this.school,
        calls: orphan.lines.length,
      });
      this.send(orphan);
    }
    // Each process at its own moment in the period, so that processes sharing a store write by turns.
    const first = setTimeout(
      () => {
        void this.flush();
        this.timer = setInterval(() => void this.flush(), settings.flushMs);
        this.timer.unref();
      },
      Math.floor(Math.random() * settings.flushMs),
    );
    first.unref();
    this.timer = first;
  }

  record(entry: AuditRecord): void {
    this.sequence += 1;
    this.journal.append(journalLine(entry, `${this.journal.token}/${this.sequence}`));
    if (this.journal.length >= MAX_BUFFERED) void this.flush();
  }

  /**
   * Sends an answer once every call recorded so far is in the journal file: at once when it is,
   * else at the end of this turn of the event loop, when the lines of every call of the turn are
   * written in one system call (a write a call cost an audited call several microseconds of the
   * kernel's time) and the answers held for them then sent, in order. When the lines cannot be
   * written, the answers held fail instead: no answer leaves before its record.
   */
  afterJournal(send: () => void, fail: (error: unknown) => void): void {
    if (!this.holdsAnswers) {
      send();
      return;
    }
    this.held.push({ send, fail });
    if (this.held.length === 1) setImmediate(this.releaseHeld);
  }

  /** Whether calls were recorded that are not in the journal file yet: answers wait for them. */
  get holdsAnswers(): boolean {
    return this.journal.holdsUnwritten;
  }

  private readonly releaseHeld = (): void => {
    const held = this.held;
    this.held = [];
    try {
      this.journal.write();
    } catch (error) {
      for (const answer of held) answer.fail(error);
      return;
    }
    for (const answer of held) answer.send();
  };

  /** Sends what is held to the writer; resolves once every batch sent so far is written (or its failure logged). */
  flush(): Promise<void> {
    const segment = this.journal.rotate();
    if (segment) this.send(segment);
    return Promise.all([...this.unconfirmed.keys()].map((id) => this.answerOf(id))).then(() => undefined);
  }

  /** Writes the rest and stops the writer, on shutdown; what is not written stays in the journal for the next start. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    // Held by the writer until this trail has left it: an unreferenced thread would let the process
    // end (its event loop otherwise empty on shutdown) before the last batch is written.
    this.writer.holdProcess();
    await this.flush();
    this.closing = true;
    this.journal.close();
    await this.writer.leave(this.id);
  }

  private answerOf(id: number): Promise<void> {
    return new Promise((resolve) => {
      const earlier = this.answered.get(id);
      this.answered.set(id, () => {
        earlier?.();
        resolve();
      });
    });
  }

  private send(segment: JournalSegment): void {
    this.nextBatch += 1;
    const batch = { ...segment, id: this.nextBatch };
    this.unconfirmed.set(batch.id, batch);
    this.post(batch);
    this.holdAtMost(MAX_HELD);
  }

  private post(batch: Batch): void {
    const { id, path, lines } = batch;
    this.writer.post({ kind: 'batch', trail: this.id, id, path, lines } satisfies ToWriter);
  }

  private attach(): void {
    this.writer.post({ kind: 'attach', trail: this.id, settings: this.writerSettings } satisfies ToWriter);
  }

  writerRestarted(): void {
    if (this.closing) return;
    this.attach();
    for (const batch of this.unconfirmed.values()) this.post(batch);
  }

  heard(message: FromWriter): void {
    if (message.kind === 'detached') return; // the thread's own
    if (message.kind === 'prune-failed') {
      log.error('could not prune the audit trail', { school: this.school, error: message.error });
      return;
    }
    if (message.kind === 'written') {
      this.unconfirmed.delete(message.id);
      if (message.unreadable > 0)
        log.warn('audit journal lines cut short were left out', { school: this.school, lines: message.unreadable });
    } else {
      log.error('could not write the audit trail; will try again', {
        school: this.school,
        calls: this.unconfirmed.get(message.id)?.lines.length,
        error: message.error,
      });
      // Sent again with the next flush, or to the writer that replaces this one.
      setTimeout(() => this.resendFailed(message.id), 1_000).unref();
    }
    this.answered.get(message.id)?.();
    this.answered.delete(message.id);
  }

  private resendFailed(id: number): void {
    const batch = this.unconfirmed.get(id);
    if (batch && !this.closing) this.post(batch);
  }

  private holdAtMost(calls: number): void {
    let held = 0;
    for (const batch of this.unconfirmed.values()) held += batch.lines.length;
    for (const [id, batch] of this.unconfirmed) {
      if (held <= calls) return;
      held -= batch.lines.length;
      this.unconfirmed.delete(id);
      this.answered.get(id)?.();
      this.answered.delete(id);
      log.error('the audit trail could not be written for long: calls left in the journal for the next start', {
        school: this.school,
        calls: batch.lines.length,
        journal: batch.path,
      });
    }
  }
}

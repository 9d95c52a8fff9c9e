import { randomBytes } from 'node:crypto';
import { log } from '../lib/log';
import {
  type AuditEventRow,
  type AuditSubjectRow,
  appendAuditEvents,
  pruneAuditTrail,
} from '../store/queries/audit-trail';
import type { Session } from '../store/session';

/** An audited call, as the pipeline reports it. */
export interface AuditRecord {
  readonly at: Date;
  readonly caller: string;
  readonly address: string;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: 'ok' | 'failed';
  readonly students: readonly number[];
  readonly teachers: readonly number[];
  readonly classes: readonly number[];
}

export interface AuditTrailSettings {
  readonly flushMs: number;
  readonly retentionDays: number;
}

/** Entries held at most between writes; past it they are written at once. */
const MAX_BUFFERED = 5_000;
/** Entries held while the store cannot be written; the oldest beyond it are dropped, and said so. */
const MAX_HELD = 50_000;
/**
 * Rows (entries and the records they touched) per transaction, about a millisecond's writing.
 * Between two, the event loop answers calls: a second's worth of a busy service's entries written
 * at once held SQLite, and with it every call of this process and of any other waiting to write,
 * for hundreds of milliseconds.
 */
const ROWS_PER_TRANSACTION = 200;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface PendingEntry {
  readonly event: AuditEventRow;
  readonly subjects: readonly AuditSubjectRow[];
}

/** The subjects of an entry, in one order, as text: entries that touched the same records have the same. */
function subjectKey(students: readonly number[], teachers: readonly number[], classes: readonly number[]): string {
  const sorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b).join(',');
  return `${sorted(students)};${sorted(teachers)};${sorted(classes)}`;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The audit trail of calls that returned personal data or caused a message or a document. A call
 * only adds its entry to a buffer, which is written to the store at least every AUDIT_FLUSH_MS and
 * when the process stops, in transactions of a hundred entries, so that auditing costs no store
 * write per call. Calls of one second by the same caller, from the same address, to the same
 * operation over the same binding, with the same outcome and touching the same records, are one
 * entry with their count: what a busy client repeats many times a second is written once. Entries
 * older than AUDIT_RETENTION_DAYS are deleted once an hour, a thousand at a time.
 */
export class AuditTrail {
  private pending: PendingEntry[] = [];
  /** The pending entries by what makes calls the same (see above), to count repeats into them. */
  private bySameCalls = new Map<string, PendingEntry>();
  private timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  /** This process among every process writing the trail, so that ids made at the same moment differ. */
  private readonly writer = randomBytes(4).toString('hex');
  private sequence = 0;

  constructor(
    private readonly store: Session,
    private readonly settings: AuditTrailSettings,
    private readonly clock: () => Date,
  ) {
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
    const occurredAt = entry.at.toISOString();
    const second = occurredAt.slice(0, 19);
    const subjectsKey = subjectKey(entry.students, entry.teachers, entry.classes);
    const same = [second, entry.caller, entry.address, entry.operation, entry.binding, entry.outcome, subjectsKey].join(
      '|',
    );
    const repeated = this.bySameCalls.get(same);
    if (repeated) {
      repeated.event.calls += 1;
      return;
    }
    // In time order, so that entries are appended to the store's indexes rather than scattered in them.
    this.sequence += 1;
    const id = `${occurredAt}/${this.writer}/${this.sequence}`;
    // Students and classes are rows of their own, to be found by; the teachers shown ride along in
    // the entry: a student's subjects name ten of them, and no one asks the trail for a teacher.
    const subjects: AuditSubjectRow[] = [];
    for (const [kind, ids] of [
      ['student', entry.students],
      ['class', entry.classes],
    ] as const) {
      for (const subjectId of new Set(ids)) subjects.push({ event_id: id, kind, subject_id: subjectId });
    }
    const event = {
      id,
      occurred_at: occurredAt,
      caller: entry.caller,
      address: entry.address,
      operation: entry.operation,
      binding: entry.binding,
      outcome: entry.outcome,
      teachers: [...new Set(entry.teachers)].sort((a, b) => a - b).join(','),
      calls: 1,
    };
    const pending = { event, subjects };
    this.pending.push(pending);
    this.bySameCalls.set(same, pending);
    if (this.pending.length >= MAX_BUFFERED) void this.flush();
  }

  /** Writes what is buffered; resolves once it is in the store (or its failure is logged). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Writes the rest and stops the timer: on shutdown. */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const entries = this.pending;
    this.pending = [];
    this.bySameCalls = new Map();
    let start = 0;
    while (start < entries.length) {
      let end = start;
      for (let rows = 0; end < entries.length && rows < ROWS_PER_TRANSACTION; end += 1) {
        rows += 1 + entries[end].subjects.length;
      }
      const chunk = entries.slice(start, end);
      try {
        await appendAuditEvents(
          this.store,
          chunk.map((entry) => entry.event),
          chunk.flatMap((entry) => entry.subjects),
        );
      } catch (error) {
        this.keepForLater(entries.slice(start), error);
        return;
      }
      start = end;
      await nextTurn();
    }
    await this.pruneWhenDue();
  }

  /** What could not be written is kept for the next write rather than lost: the store may be back by then. */
  private keepForLater(entries: PendingEntry[], error: unknown): void {
    this.pending = [...entries, ...this.pending];
    const excess = this.pending.length - MAX_HELD;
    if (excess > 0) {
      this.pending.splice(0, excess);
      log.error('the audit trail could not be written for long: its oldest entries were dropped', { entries: excess });
    }
    log.error('could not write the audit trail; will try again', {
      entries: entries.length,
      error: error instanceof Error ? error.message : String(error),
    });
  }

  private async pruneWhenDue(): Promise<void> {
    const now = this.clock().getTime();
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    const before = new Date(now - this.settings.retentionDays * DAY_MS).toISOString();
    try {
      while ((await pruneAuditTrail(this.store, before, 1_000)) > 0) await nextTurn();
    } catch (error) {
      log.error('could not prune the audit trail', { error: error instanceof Error ? error.message : String(error) });
    }
  }
}

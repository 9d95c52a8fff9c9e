import { randomUUID } from 'node:crypto';
import { log } from '../lib/log';
import { type AuditSubjectRow, appendAuditEvents, pruneAuditTrail } from '../store/queries/audit-trail';
import type { Session } from '../store/session';

/** An audited call, as the pipeline reports it. */
export interface AuditRecord {
  readonly at: Date;
  readonly caller: string;
  readonly address: string;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: 'ok' | 'failed';
  readonly students: Iterable<number>;
  readonly teachers: Iterable<number>;
  readonly classes: Iterable<number>;
}

export interface AuditTrailSettings {
  readonly flushMs: number;
  readonly retentionDays: number;
}

/** Entries held at most between writes; past it they are written at once. */
const MAX_BUFFERED = 5_000;
/** Entries held while the store cannot be written; the oldest beyond it are dropped, and said so. */
const MAX_HELD = 50_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The audit trail of calls that returned personal data or caused a message or a document. A call
 * only adds its entry to a buffer, which is written to the store in one transaction at least
 * every AUDIT_FLUSH_MS and when the process stops, so that auditing costs no store write per
 * call. Entries older than AUDIT_RETENTION_DAYS are deleted once an hour.
 */
export class AuditTrail {
  private events: Parameters<typeof appendAuditEvents>[1][number][] = [];
  private subjects: AuditSubjectRow[] = [];
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    private readonly store: Session,
    private readonly settings: AuditTrailSettings,
    private readonly clock: () => Date,
  ) {
    this.timer = setInterval(() => void this.flush(), settings.flushMs);
    this.timer.unref();
  }

  record(entry: AuditRecord): void {
    const id = randomUUID();
    this.events.push({
      id,
      occurred_at: entry.at.toISOString(),
      caller: entry.caller,
      address: entry.address,
      operation: entry.operation,
      binding: entry.binding,
      outcome: entry.outcome,
    });
    for (const [kind, ids] of [
      ['student', entry.students],
      ['teacher', entry.teachers],
      ['class', entry.classes],
    ] as const) {
      for (const subjectId of new Set(ids)) this.subjects.push({ event_id: id, kind, subject_id: subjectId });
    }
    if (this.events.length >= MAX_BUFFERED) void this.flush();
  }

  /** Writes what is buffered; resolves once it is in the store (or its failure is logged). */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  /** Writes the rest and stops the timer: on shutdown. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private dropBeyond(limit: number): void {
    const excess = this.events.length - limit;
    if (excess <= 0) return;
    const dropped = new Set(this.events.splice(0, excess).map((event) => event.id));
    this.subjects = this.subjects.filter((subject) => !dropped.has(subject.event_id));
    log.error('the audit trail could not be written for long: its oldest entries were dropped', { entries: excess });
  }

  private async write(): Promise<void> {
    const events = this.events;
    const subjects = this.subjects;
    this.events = [];
    this.subjects = [];
    try {
      if (events.length > 0) await appendAuditEvents(this.store, events, subjects);
      const now = this.clock().getTime();
      if (now - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await pruneAuditTrail(this.store, new Date(now - this.settings.retentionDays * DAY_MS).toISOString());
      }
    } catch (error) {
      // Kept for the next write rather than lost: the store may be back by then.
      this.events.unshift(...events);
      this.subjects.unshift(...subjects);
      this.dropBeyond(MAX_HELD);
      log.error('could not write the audit trail; will try again', {
        entries: events.length,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

import type { AuditEventRow, AuditSubjectRow } from '../store/queries/audit-trail';

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

/** One call as the journal holds it; `id` is the run's token and the call's number in it, unique for good. */
interface JournalLine {
  readonly id: string;
  readonly at: string;
  readonly caller: string;
  readonly address: string;
  readonly operation: string;
  readonly binding: string;
  readonly outcome: string;
  readonly students: readonly number[];
  readonly teachers: readonly number[];
  readonly classes: readonly number[];
}

/** The last time a line was stamped with, and its text: calls of one millisecond share it. */
let lastTime = Number.NaN;
let lastIso = '';

function isoTime(at: Date): string {
  const time = at.getTime();
  if (time !== lastTime) {
    lastTime = time;
    lastIso = at.toISOString();
  }
  return lastIso;
}

/**
 * The journal line of a call: what the caller's path pays for auditing, with the append. Written
 * field by field, in the order of `JournalLine`, rather than by JSON.stringify of an object made
 * for it, with the time's text made once a millisecond; every value is still JSON as JSON.stringify
 * writes it, so the line reads back as it did.
 */
export function journalLine(record: AuditRecord, id: string): string {
  return (
    `{"id":${JSON.stringify(id)},"at":"${isoTime(record.at)}","caller":${JSON.stringify(record.caller)}` +
    `,"address":${JSON.stringify(record.address)},"operation":${JSON.stringify(record.operation)}` +
    `,"binding":${JSON.stringify(record.binding)},"outcome":"${record.outcome}"` +
    `,"students":${JSON.stringify(record.students)},"teachers":${JSON.stringify(record.teachers)}` +
    `,"classes":${JSON.stringify(record.classes)}}`
  );
}

const sortedUnique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** The rows of a batch of journal lines, what the writer appends to the store. */
export interface AuditRows {
  readonly events: AuditEventRow[];
  readonly subjects: AuditSubjectRow[];
  /** Lines that did not parse: the last of a killed process, cut short. */
  readonly unreadable: number;
}

/**
 * The store's rows of a batch of calls. Calls of one second by the same caller, from the same
 * address, to the same operation over the same binding, with the same outcome and touching the
 * same records, are one entry with their count: what a busy client repeats many times a second is
 * written once. An entry's id is its time and the id of its first call, so the same lines always
 * give the same rows: a batch written twice (its writer died before saying so, or a journal
 * moved again after a crash) adds nothing the second time. Every entry names `school`, the
 * district school whose trail (and journal) the lines are, rather than each line naming it: a
 * trail is one school's, so the call's path pays nothing for it.
 */
export function auditRowsOf(lines: readonly string[], school: string | null = null): AuditRows {
  const events: AuditEventRow[] = [];
  const subjects: AuditSubjectRow[] = [];
  const bySameCalls = new Map<string, AuditEventRow>();
  let unreadable = 0;
  for (const text of lines) {
    let line: JournalLine;
    try {
      line = JSON.parse(text) as JournalLine;
    } catch {
      unreadable += 1;
      continue;
    }
    const students = sortedUnique(line.students);
    const classes = sortedUnique(line.classes);
    const teachers = sortedUnique(line.teachers).join(',');
    const same = [
      line.at.slice(0, 19),
      line.caller,
      line.address,
      line.operation,
      line.binding,
      line.outcome,
      students.join(','),
      classes.join(','),
      teachers,
    ].join('|');
    const repeated = bySameCalls.get(same);
    if (repeated) {
      repeated.calls += 1;
      continue;
    }
    // Ids begin with the time, so that entries are appended to the store's indexes rather than scattered in them.
    const id = `${line.at}/${line.id}`;
    const event = {
      id,
      occurred_at: line.at,
      caller: line.caller,
      address: line.address,
      operation: line.operation,
      binding: line.binding,
      outcome: line.outcome,
      // Students and classes are rows of their own, to be found by; the teachers shown ride along in
      // the entry: a student's subjects name ten of them, and no one asks the trail for a teacher.
      teachers,
      calls: 1,
      school,
    };
    events.push(event);
    bySameCalls.set(same, event);
    for (const subjectId of students) subjects.push({ event_id: id, kind: 'student', subject_id: subjectId });
    for (const subjectId of classes) subjects.push({ event_id: id, kind: 'class', subject_id: subjectId });
  }
  return { events, subjects, unreadable };
}

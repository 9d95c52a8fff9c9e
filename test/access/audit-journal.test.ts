import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTrail } from '../../src/audit/audit-trail';
import { JOURNAL_FOLDER } from '../../src/audit/audit-journal';
import { auditRowsOf, journalLine } from '../../src/audit/audit-lines';
import { setLogLevel } from '../../src/lib/log';
import { openStoreConnection, type Store } from '../../src/store/open-store';
import { appendAuditBatchOnce } from '../../src/store/queries/audit-trail';
import { capturedLog } from '../support/captured-log';
import { remoteCall } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { killed, type ServiceProcess, startServiceProcess } from '../support/service-process';
import { openTestSchool, openTestStore } from '../support/stores';

/**
 * The audit trail loses no answered call: each call's record reaches the operating system (the
 * process's journal) before its answer leaves, and is written to the store by a thread of its own.
 * A SIGTERM writes what is held; after a SIGKILL under load the next start moves the journal into
 * the trail, once; a writer thread that dies is replaced and its batches written.
 */

const INFO = '/GetStudentsInformation.asmx';
/** Students of the test school the calls ask for, each call one of them. */
const STUDENTS = 100;

/** Calls by student, as many as the trail counts for each. */
async function auditedCallsByStudent(store: Store): Promise<Map<number, number>> {
  const rows = await store.db
    .selectFrom('audit_subjects as subject')
    .innerJoin('audit_events as event', 'event.id', 'subject.event_id')
    .select(['subject.subject_id', 'event.calls'])
    .where('subject.kind', '=', 'student')
    .execute();
  const calls = new Map<number, number>();
  for (const row of rows) calls.set(row.subject_id, (calls.get(row.subject_id) ?? 0) + row.calls);
  return calls;
}

async function auditedCalls(store: Store): Promise<number> {
  const rows = await store.db.selectFrom('audit_events').select('calls').execute();
  return rows.reduce((sum, row) => sum + row.calls, 0);
}

/** The journal's files and the calls they hold. */
function journal(folder: string): { files: string[]; calls: number } {
  const files = readdirSync(join(folder, JOURNAL_FOLDER));
  const calls = files
    .map(
      (name) =>
        readFileSync(join(folder, JOURNAL_FOLDER, name), 'utf8')
          .split('\n')
          .filter(Boolean).length,
    )
    .reduce((sum, count) => sum + count, 0);
  return { files, calls };
}

/** Records a portal's lookup of one student, as the pipeline does for an answer that showed the student. */
function recordLookup(trail: AuditTrail, student: number): void {
  trail.record({
    at: new Date(),
    caller: 'portal',
    address: '127.0.0.1',
    operation: 'GetStudentInfoById',
    binding: 'json',
    outcome: 'ok',
    students: [student],
    teachers: [],
    classes: [],
  });
}

const askFor = (url: string, student: number) =>
  remoteCall(url, INFO, 'GetStudentInfoById', { StudentId: String(student) }, 'json', { from: '127.0.0.1' });

/** Polls the store until `done` holds; a positive condition, so waiting ends as soon as it is met. */
async function until(settings: Record<string, string>, done: (store: Store) => Promise<boolean>): Promise<void> {
  const store = await openTestStore(settings);
  try {
    const deadline = Date.now() + 60_000;
    while (!(await done(store))) {
      if (Date.now() > deadline) throw new Error('the audit trail did not reach what was expected within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await store.close();
  }
}

describeEachEngine('the audit journal', (engine) => {
  let folder: string;
  let settings: Record<string, string>;
  let running: ServiceProcess | undefined;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'school-audit-journal-'));
    settings = { ...engine.freshStoreSettings(), DATA_DIR: folder, DEMO_DATA: 'off', AUDIT_FLUSH_MS: '1000' };
    await (await openTestSchool(settings)).close();
  });
  afterEach(async () => {
    if (running) await killed(running.child);
    running = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  test('a SIGTERM writes the calls still held in memory, and leaves no journal behind', async () => {
    running = await startServiceProcess(settings);
    for (let student = 1; student <= 20; student += 1) expect((await askFor(running.url, student)).status).toBe(200);
    // The calls are held (in memory and the journal), not yet in the store, when the process is told to stop.
    expect(journal(folder).calls).toBeGreaterThan(0);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    running = undefined;
    const store = await openTestStore(settings);
    try {
      expect(await auditedCalls(store)).toBe(20);
    } finally {
      await store.close();
    }
    expect(journal(folder).files).toEqual([]);
  });

  test('after a SIGKILL under load every answered call is in the trail after the restart, once only', async () => {
    const first = await startServiceProcess(settings);
    running = first;
    const answered = new Map<number, number>();
    let total = 0;
    let stop = false;
    const CLIENTS = 4;
    const client = async (offset: number) => {
      for (let call = offset; !stop; call += CLIENTS) {
        const student = (call % STUDENTS) + 1;
        let status: number;
        try {
          status = (await askFor(first.url, student)).status;
        } catch {
          return; // the process was killed under this call: never answered
        }
        if (status !== 200 || stop) continue;
        answered.set(student, (answered.get(student) ?? 0) + 1);
        total += 1;
        if (total >= 300) stop = true;
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, offset) => client(offset));
    while (!stop) await new Promise((resolve) => setTimeout(resolve, 5));
    await killed(first.child);
    await Promise.all(clients);
    running = undefined;

    const second = await startServiceProcess(settings);
    running = second;
    await second.waitForLine((line) => line.message === 'audit journal of a stopped process moved to the trail');
    await until(settings, async (store) => {
      const inTrail = await auditedCallsByStudent(store);
      return [...answered].every(([student, calls]) => (inTrail.get(student) ?? 0) >= calls);
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    running = undefined;
    // Once only: calls in flight at the kill may be in the trail too (recorded, never answered), no more.
    const store = await openTestStore(settings);
    try {
      const inTrail = await auditedCalls(store);
      expect(inTrail).toBeGreaterThanOrEqual(total);
      expect(inTrail).toBeLessThanOrEqual(total + CLIENTS);
    } finally {
      await store.close();
    }
    expect(journal(folder).files).toEqual([]);
  });

  test('journal files are private to the service', async () => {
    running = await startServiceProcess(settings);
    expect((await askFor(running.url, 3)).status).toBe(200);
    const { files } = journal(folder);
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(statSync(join(folder, JOURNAL_FOLDER, name)).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, JOURNAL_FOLDER)).mode & 0o777).toBe(0o700);
  });

  test("answers wait for the journal: one turn's calls are written at once, then their answers sent", async () => {
    const store = await openTestStore(settings);
    const trail = new AuditTrail(
      { databaseUrl: settings.DATABASE_URL, dataDirectory: folder },
      { flushMs: 60_000, retentionDays: 365 },
    );
    try {
      const sent: number[] = [];
      const failed: unknown[] = [];
      expect(trail.holdsAnswers).toBe(false);
      trail.afterJournal(
        () => sent.push(0),
        (error) => failed.push(error),
      );
      // Nothing recorded and unwritten: an answer leaves at once.
      expect(sent).toEqual([0]);
      const written = new Promise<number>((resolve) => {
        for (const student of [4, 5]) {
          recordLookup(trail, student);
          trail.afterJournal(
            () => {
              sent.push(student);
              if (student === 5) resolve(journal(folder).calls);
            },
            (error) => failed.push(error),
          );
        }
      });
      // Held until the end of this turn, and not yet in the file.
      expect(trail.holdsAnswers).toBe(true);
      expect([sent, journal(folder).calls]).toEqual([[0], 0]);
      // When the answers are sent, both records are in the file.
      expect(await written).toBe(2);
      expect([sent, failed, trail.holdsAnswers]).toEqual([[0, 4, 5], [], false]);
    } finally {
      await trail.close();
      await store.close();
    }
  });

  test('a writer thread that dies is replaced, its batch written, and the death logged', async () => {
    setLogLevel('warn');
    const store = await openTestStore(settings);
    const trail = new AuditTrail(
      { databaseUrl: settings.DATABASE_URL, dataDirectory: folder },
      { flushMs: 1_000, retentionDays: 365 },
      join(__dirname, '..', 'support', 'dying-audit-writer.ts'),
    );
    try {
      const logged = await capturedLog(async () => {
        for (const student of [4, 5, 6]) {
          recordLookup(trail, student);
        }
        // The first writer dies on this batch; the flush ends once its replacement has written it.
        await trail.flush();
      });
      expect(await auditedCalls(store)).toBe(3);
      expect([...(await auditedCallsByStudent(store)).keys()].sort()).toEqual([4, 5, 6]);
      expect(logged.join('\n')).toContain('"message":"the audit trail writer stopped; starting another"');
    } finally {
      await trail.close();
      await store.close();
      setLogLevel('silent');
    }
  });

  test('a batch written twice adds nothing the second time; repeats are counted, a cut line left out', async () => {
    const call = (student: number, at: string) => ({
      at: new Date(at),
      caller: 'portal',
      address: '127.0.0.1',
      operation: 'GetStudentInfoById',
      binding: 'json',
      outcome: 'ok' as const,
      students: [student],
      teachers: [9, 3, 9],
      classes: [],
    });
    const lines = [
      journalLine(call(4, '2026-11-26T10:00:00.100Z'), 'run/1'),
      journalLine(call(4, '2026-11-26T10:00:00.900Z'), 'run/2'),
      journalLine(call(5, '2026-11-26T10:00:00.950Z'), 'run/3'),
      journalLine(call(6, '2026-11-26T10:00:01.000Z'), 'run/4').slice(0, 40),
    ];
    const rows = auditRowsOf(lines);
    expect(rows.unreadable).toBe(1);
    expect(rows.events.map((event) => [event.id, event.calls, event.teachers])).toEqual([
      ['2026-11-26T10:00:00.100Z/run/1', 2, '3,9'],
      ['2026-11-26T10:00:00.950Z/run/3', 1, '3,9'],
    ]);
    const connection = openStoreConnection({ databaseUrl: settings.DATABASE_URL, dataDirectory: folder });
    const store = await openTestStore(settings);
    try {
      await appendAuditBatchOnce(connection, rows.events, rows.subjects);
      const again = auditRowsOf(lines);
      await appendAuditBatchOnce(connection, again.events, again.subjects);
      expect(await auditedCalls(store)).toBe(3);
      expect(Object.fromEntries(await auditedCallsByStudent(store))).toEqual({ 4: 2, 5: 1 });
    } finally {
      await connection.close();
      await store.close();
    }
  });
});

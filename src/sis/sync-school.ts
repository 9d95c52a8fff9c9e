import { hostname } from 'node:os';
import type { SisSettings } from '../config/sis-settings';
import type { PayloadSealer } from '../lib/payload-sealer';
import { counted } from '../lib/counted';
import { queueMarkNotifications } from '../notifications/mark-notifications';
import { changeTotals } from '../roster/change-counts';
import type { ImportOptions, ImportOutcome } from '../roster/import-school';
import { SILENT_PROGRESS } from '../roster/progress';
import { USER_TABLES } from '../roster/roster-book';
import type { Store } from '../store/open-store';
import {
  assessmentsBySourcedId,
  heldClassSourcedIds,
  heldSourcedIds,
  markIdsBySourcedId,
  recordSyncRun,
  syncedUntil,
} from '../store/queries/sis-sync';
import { problemRecords } from './problem-records';
import { importWhileReading, type WholeReading } from './import-while-reading';
import { ReadingThread } from './reading-thread';
import type { HeldRecords } from './school-filter';
import { SyncFailure } from './sync-failure';
import { SyncLease } from './sync-lease';

/**
 * One sync: the provider's school read into a spooled bundle on the reading thread while the
 * import itself reads that bundle (its rules, inferences and problems; its one transaction), which
 * decides and writes nothing before the reading is whole, so a sync that fails at any page leaves
 * the store as it was and the next one starts again from the last successful one. The first sync,
 * and every sync with --full, reads everything and applies it as a bulk import; the others ask for
 * records changed since the last successful sync and apply them as a delta (tobedeleted records
 * leave the store). A lease in the store lets one sync run at a time across every node sharing it.
 */
export interface SyncOptions {
  readonly full: boolean;
  readonly dryRun: boolean;
  readonly skipInvalid: boolean;
  readonly fromIdentifier: boolean;
  /** Warnings (the import's, and records sent twice) count as problems, as import --strict has it. */
  readonly strict: boolean;
  readonly defaultCountryCode: string;
  /** Given: mark notifications are queued for the results a delta brings. */
  readonly notify?: { readonly sealer: PayloadSealer; readonly perDevicePerMinute: number };
  readonly now?: () => Date;
  /** For tests: instead of sleeping between tries. */
  readonly wait?: (ms: number) => Promise<unknown>;
}

export type SyncOutcomeKind = 'done' | 'rows-skipped' | 'nothing-written' | 'failed' | 'busy';

export interface SyncOutcome {
  readonly outcome: SyncOutcomeKind;
  readonly mode: 'bulk' | 'delta';
  readonly startedAt: string;
  readonly durationMs: number;
  /** From the start until the provider was read whole (the import runs beside the reading, and after it). */
  readonly readMs: number;
  readonly records: number;
  readonly added: number;
  readonly changed: number;
  readonly deleted: number;
  /** Records the provider sent twice (taken once), and the first of them as `collection "sourcedId"`. */
  readonly duplicates: number;
  readonly duplicated: readonly string[];
  /** The import's warnings (records sent twice are counted apart). */
  readonly warnings: number;
  readonly problems: number;
  readonly requests: number;
  readonly notified: number;
  /** Why it failed or wrote nothing; empty when it succeeded. */
  readonly message: string;
  readonly imported?: ImportOutcome;
  /** The sourcedId of the record each kept problem, warning and note is at, by "file:line". */
  readonly problemRecords: ReadonlyMap<string, string>;
}

/** A sync under way: what it was asked, since when it reads, and its lease. */
interface SyncRun {
  readonly store: Store;
  readonly settings: SisSettings;
  readonly options: SyncOptions;
  readonly now: () => Date;
  readonly started: Date;
  readonly mode: 'bulk' | 'delta';
  /** The end of the last successful sync, which a delta reads from; undefined for a bulk sync. */
  readonly since: string | undefined;
  readonly lease: SyncLease;
}

/** The figures of a sync that read or wrote nothing. */
function emptyTally() {
  return {
    problemRecords: new Map<string, string>(),
    readMs: 0,
    records: 0,
    added: 0,
    changed: 0,
    deleted: 0,
    duplicates: 0,
    duplicated: [] as string[],
    warnings: 0,
    problems: 0,
  };
}

function busy(startedAt: string): SyncOutcome {
  return {
    ...emptyTally(),
    outcome: 'busy',
    mode: 'bulk',
    startedAt,
    durationMs: 0,
    requests: 0,
    notified: 0,
    message: 'another sync is running',
  };
}

export async function syncSchool(store: Store, settings: SisSettings, options: SyncOptions): Promise<SyncOutcome> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const lease = new SyncLease(store, now);
  if (!(await lease.take(started))) return busy(started.toISOString());
  const since = options.full ? undefined : await syncedUntil(store);
  const run: SyncRun = { store, settings, options, now, started, mode: since ? 'delta' : 'bulk', since, lease };
  const outcome = await readAndImport(run);
  try {
    if (!options.dryRun) {
      const succeeded = outcome.outcome === 'done' || outcome.outcome === 'rows-skipped';
      await recordSyncRun(store, runRow(outcome), succeeded ? outcome.startedAt : undefined);
    }
  } finally {
    await lease.release();
  }
  return outcome;
}

/** What the import is asked: the sync's own options, on the bundle the reading thread spools. */
function importOptionsOf(run: SyncRun, folder: string): ImportOptions {
  const { options, mode } = run;
  return {
    path: folder,
    mode,
    dryRun: options.dryRun,
    skipInvalid: options.skipInvalid,
    strict: options.strict,
    // A bulk sync is the whole school: the import's --school chooses it among the provider's
    // schools (and lists them when none is named). A delta's other schools are left out as it is
    // read (school-filter.ts); the import's --school then reads the orgs the delta does not bring
    // (a teacher's other school) as another school's, as it does for a CSV delta.
    school: run.settings.school,
    fromIdentifier: options.fromIdentifier,
    defaultCountryCode: options.defaultCountryCode,
    progress: SILENT_PROGRESS,
  };
}

/** Reads the provider on the reading thread while the import reads what it spools; the outcome, failed or not. */
async function readAndImport(run: SyncRun): Promise<SyncOutcome> {
  const { store, settings, options, mode, since, lease } = run;
  let thread: ReadingThread | undefined;
  let timeLimit: NodeJS.Timeout | undefined;
  try {
    const notifying = options.notify !== undefined && since !== undefined && !options.dryRun;
    const reader = await ReadingThread.start(settings, {
      mode,
      since,
      keepResults: notifying,
      held: since && settings.school ? await heldRecords(store) : undefined,
      wait: options.wait,
      alive: () => lease.stillHeld(),
    });
    thread = reader;
    // The reading is what a provider can make endless (pages that never end, answers that trickle).
    timeLimit = setTimeout(() => reader.stop(tooLong(settings)), settings.timeLimitMs);
    const { read, imported } = await importWhileReading(
      {
        store,
        options: importOptionsOf(run, reader.folder),
        lease,
        strict: options.strict,
        elapsedMs: () => run.now().getTime() - run.started.getTime(),
      },
      reader,
    );
    const tally = await tallyOf(imported, read, reader.folder);
    const notified =
      imported.written && options.notify && notifying ? await notifyMarks(store, read, options.notify, run.now()) : 0;
    return outcomeOf(run, imported, { ...tally, requests: reader.requests, notified });
  } catch (error) {
    const message =
      error instanceof SyncFailure ? error.message : `unexpected: ${String((error as Error)?.message ?? error)}`;
    return { ...emptyTally(), ...runFigures(run, thread?.requests ?? 0), outcome: 'failed', notified: 0, message };
  } finally {
    clearTimeout(timeLimit);
    await thread?.remove();
  }
}

/** The outcome's mode and times, and the requests made of the provider. */
function runFigures(run: SyncRun, requests: number) {
  return {
    mode: run.mode,
    startedAt: run.started.toISOString(),
    durationMs: run.now().getTime() - run.started.getTime(),
    requests,
  };
}

/** The figures of a sync that read the provider whole: the import's own, and the records sent twice apart. */
async function tallyOf(imported: ImportOutcome, read: WholeReading, folder: string) {
  const said = imported.problems;
  const records = await problemRecords(folder, [...said.list().problems, ...said.warnings().warnings, ...said.notes()]);
  return {
    ...emptyTally(),
    problemRecords: records,
    readMs: read.readMs,
    records: read.records,
    duplicates: read.duplicates,
    duplicated: read.duplicated,
    warnings: said.warningCount,
    problems: said.count,
    // The import's own figures, worked out before it writes: a dry run's are the real run's.
    ...changeTotals(imported.changes),
  };
}

type Tally = Awaited<ReturnType<typeof tallyOf>> & { readonly requests: number; readonly notified: number };

/** What came of an import: written (whole, or with rows left out), or not, and why. */
function outcomeOf(run: SyncRun, imported: ImportOutcome, tally: Tally): SyncOutcome {
  const { options } = run;
  const { problems } = tally;
  const figures = { ...tally, ...runFigures(run, tally.requests), imported };
  if (imported.written) {
    const message = problems > 0 ? `${counted(imported.problems.rowCount, 'row')} left out` : '';
    return { ...figures, outcome: problems > 0 ? 'rows-skipped' : 'done', message };
  }
  const wouldApply =
    options.dryRun &&
    !imported.schools &&
    !imported.replaces &&
    !imported.problems.hasFatal &&
    (problems === 0 || options.skipInvalid);
  return {
    ...figures,
    outcome: wouldApply ? 'done' : 'nothing-written',
    notified: 0,
    message: wouldApply ? '' : whyNothingWritten(imported),
  };
}

function tooLong(settings: SisSettings): SyncFailure {
  const seconds = settings.timeLimitMs / 1000;
  return new SyncFailure(`the sync took longer than SIS_SYNC_TIME_LIMIT_SECONDS (${seconds} s) allows; stopped`);
}

/** Why the import wrote nothing, in the sync's words (its settings, not the import's flags). */
function whyNothingWritten(imported: ImportOutcome): string {
  if (imported.schools) {
    const schools = imported.schools.map((school) => `"${school.sourcedId}" (${school.name})`).join(', ');
    const served = counted(imported.schools.length, 'school');
    return `the provider serves ${served}: ${schools}; name one with SIS_SCHOOL or --school`;
  }
  if (imported.replaces) {
    return (
      `the store holds another school, ${imported.replaces.name}, which a sync does not replace ` +
      '(sync into an empty store)'
    );
  }
  return `the provider's school has ${counted(imported.problems.count, 'problem')}; nothing was written`;
}

/** This school's classes, lineItems and users the store holds (it holds no other school's). */
async function heldRecords(store: Store): Promise<HeldRecords> {
  return {
    classes: await heldClassSourcedIds(store),
    lineItems: await heldSourcedIds(store, ['assessments']),
    users: await heldSourcedIds(store, USER_TABLES),
  };
}

function runRow(outcome: SyncOutcome) {
  return {
    started_at: outcome.startedAt,
    finished_at: new Date(Date.parse(outcome.startedAt) + outcome.durationMs).toISOString(),
    node: hostname(),
    mode: outcome.mode,
    outcome: outcome.outcome,
    records: outcome.records,
    added: outcome.added,
    changed: outcome.changed,
    deleted: outcome.deleted,
    warnings: outcome.warnings,
    problems: outcome.problems,
    requests: outcome.requests,
    message: outcome.message,
    changes: JSON.stringify(outcome.imported?.changes ?? {}),
    duplicates: outcome.duplicates,
  };
}

/**
 * Mark notifications for the results a delta brought, by the same code as SendMarkNotes: its
 * idempotency keys (assessment, mark, device, score) make each result notified once, however many
 * syncs see it, and a corrected score notified again.
 */
async function notifyMarks(
  store: Store,
  read: { readonly markedLineItems: Iterable<string>; readonly results: readonly string[] },
  notify: NonNullable<SyncOptions['notify']>,
  now: Date,
): Promise<number> {
  let queued = 0;
  const marks = await markIdsBySourcedId(store, read.results);
  for (const target of await assessmentsBySourcedId(store, [...read.markedLineItems])) {
    const result = await queueMarkNotifications(
      store,
      target,
      { now, sealer: notify.sealer },
      {
        // The sync is no caller to hold back: its limit is one it never reaches; each device keeps its own.
        caller: { key: 'sis-sync', limit: 1_000_000, windowMs: 3_600_000 },
        perDevicePerMinute: notify.perDevicePerMinute,
      },
      marks,
    );
    if (typeof result === 'number') queued += result;
  }
  return queued;
}

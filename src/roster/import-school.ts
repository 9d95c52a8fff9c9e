import { counted } from '../lib/counted';
import type { Store } from '../store/open-store';
import { type ImportConnection, openImportConnection } from '../store/roster/import-connection';
import { heldSourcedIds, loadLedger, storedRelations } from '../store/roster/ledger';
import { keptRowsOf } from '../store/roster/kept-fields';
import { cascadedDeletions } from '../store/roster/cascaded-deletions';
import { countSchoolRows, storedSchool } from '../store/roster/school-reader';
import { SCHOOL_TABLES, type SchoolTableName } from '../store/roster/school-tables';
import { stagedMarkChanges, stagedMarkCount } from '../store/roster/staged-marks';
import type { BundleLimits } from './bundle-limits';
import { type Changes, changesOf, countRecords } from './change-counts';
import { type Bundle, openBundle } from './bundle-source';
import { type RosterRecords, recordsBundle } from './record-source';
import type { ImportContext } from './import-context';
import { type Manifest, readManifest, refuseBulkOfNothing } from './manifest';
import { KeptFields } from './kept-fields';
import { Problems } from './problems';
import type { Progress } from './progress';
import { type ImportMode, RosterBook } from './roster-book';
import { readBundle } from './read-bundle';
import { ledgerView, preloadStore } from './stored-records';
import { saveUsersOutline } from './saved-users-outline';
import { deletedIds, writeSchool } from './write-school';

/**
 * Imports a bundle into the store: every file is read and checked first (results staged in the
 * store's temporary tables), then, if nothing is wrong (or --skip-invalid leaves the bad rows
 * out), the school changes in one transaction. Nothing is written on a dry run or when any row is
 * wrong without --skip-invalid; a problem with a file itself (unreadable CSV, a missing column)
 * writes nothing either way.
 */
export interface ImportOptions {
  /** A folder or .zip; ignored when `bundle` is given. */
  readonly path: string;
  /** The bundle itself, for records that come from elsewhere (see importRecords). */
  readonly bundle?: Bundle;
  /** Undefined: as the manifest declares. */
  readonly mode: ImportMode | undefined;
  readonly dryRun: boolean;
  readonly skipInvalid: boolean;
  /** Warnings are problems. */
  readonly strict?: boolean;
  readonly fromIdentifier: boolean;
  /** --school (IMPORT_SCHOOL): the sourcedId of the school to import from a bundle of several. */
  readonly school?: string;
  /** --replace: a bulk import may replace a school of the store that is not the bundle's. */
  readonly replace?: boolean;
  readonly defaultCountryCode: string;
  readonly progress: Progress;
  /** How much the bundle may inflate to, and by when it must be read; none when undefined. */
  readonly limits?: BundleLimits;
  /**
   * A bundle still being written as it is read (a sync's): settles once it is whole and accepted.
   * The import waits for it before it decides or writes anything, and fails with its error.
   */
  readonly untilWhole?: () => Promise<void>;
}

export interface ImportOutcome {
  readonly written: boolean;
  readonly mode: ImportMode;
  readonly problems: Problems;
  /** Records of the bundle by table (marks included), written or, on a dry run, that would be. */
  readonly counts: Readonly<Partial<Record<SchoolTableName, number>>>;
  /** Data rows read, in every file but manifest.csv (whose rows are properties of the bundle). */
  readonly rows: number;
  /** Per table, marks included: records added, changed (the store holds them) and deleted (change-counts.ts). */
  readonly changes?: Readonly<Changes>;
  /** A bundle of several schools and no --school: its schools, nothing read further or written. */
  readonly schools?: ReadonlyArray<{ sourcedId: string; name: string; identifier: string }>;
  /** A bulk import refused for replacing another school without --replace: that school and its rows. */
  readonly replaces?: { name: string; sourcedId: string | null; counts: ReadonlyMap<string, number> };
}

export type { Change } from './change-counts';

export async function importSchool(store: Store, options: ImportOptions): Promise<ImportOutcome> {
  const startedAt = new Date().toISOString();
  const problems = new Problems(options.strict ?? false);
  const bundle = options.bundle ?? (await openBundle(options.path, options.limits));
  const connection = await openImportConnection(store.connection);
  const kept = new KeptFields();
  try {
    const manifest = await readManifest(bundle, problems);
    const mode = options.mode ?? manifest?.mode ?? 'bulk';
    if (!manifest) return { written: false, mode, problems, counts: {}, rows: 0 };
    if (mode === 'bulk') refuseBulkOfNothing(manifest, problems);
    const ledger = await loadLedger(connection);
    const book = new RosterBook(mode, ledgerView(ledger));
    if (mode === 'delta') await preloadStore(connection, book);
    const context = await importContext(options, connection, { bundle, book, problems, mode, manifest, kept });
    if (mode === 'delta' && context.school.chosen) book.unknownIsOtherSchool = context.school.leftOut;
    await readBundle(context, connection, ledger.highest.get('marks') ?? 0, options.skipInvalid);
    await options.untilWhole?.();
    if (context.school.needed) {
      return {
        written: false,
        mode,
        problems,
        counts: {},
        rows: context.rowsRead.count,
        schools: context.school.candidates,
      };
    }
    noteRowsLeftOut(context);
    return await writeUnlessRefused(context, connection, options, startedAt);
  } finally {
    kept.discard();
    await connection.run('DROP TABLE IF EXISTS staged_marks').catch(() => 0);
    await connection.release();
    await bundle.close();
  }
}

/** What the import has opened and read before the files: the parts of its context that are not the options'. */
interface ImportParts {
  readonly bundle: Bundle;
  readonly book: RosterBook;
  readonly problems: Problems;
  readonly mode: ImportMode;
  readonly manifest: Manifest;
  readonly kept: KeptFields;
}

/** The context every file's reader shares, as it stands before the first file is read. */
async function importContext(
  options: ImportOptions,
  connection: ImportConnection,
  { bundle, book, problems, mode, manifest, kept }: ImportParts,
): Promise<ImportContext> {
  return {
    bundle,
    book,
    problems,
    progress: options.progress,
    mode,
    fromIdentifier: options.fromIdentifier,
    defaultCountryCode: options.defaultCountryCode,
    declared: manifest.declared,
    absent: manifest.absent,
    version: manifest.version,
    readers: new Map(),
    orgs: new Set(),
    userGrades: new Map(),
    school: {
      chosen: options.school || undefined,
      candidates: [],
      needed: false,
      leftOut: { file: 'orgs.csv', where: 'orgs.csv:1', skipped: 0 },
    },
    storedRelations: mode === 'delta' ? await storedRelations(connection) : new Map(),
    keptRows: (file, sourcedIds) => keptRowsOf(connection, file, sourcedIds),
    // The school's rows: the manifest's properties describe the bundle, not the school.
    rowsRead: { count: 0 },
    patches: [],
    handOvers: [],
    links: [],
    kept,
  };
}

/** Says what was left out without being wrong: other schools' rows, and rows naming records of unreadable files. */
function noteRowsLeftOut(context: ImportContext): void {
  const { problems } = context;
  if (context.school.leftOut.skipped > 0) {
    problems.note({
      file: 'orgs.csv',
      line: 1,
      column: 1,
      kind: 'other-schools',
      message:
        `${counted(context.school.leftOut.skipped, 'row')} of other schools than "${context.school.chosen}" ` +
        '(and the rows naming them) are not imported',
    });
  }
  for (const { file, where, skipped } of context.book.brokenFiles()) {
    if (skipped === 0) continue;
    const [at, line] = where.split(':');
    problems.warn({
      file: at,
      line: Number(line),
      column: 1,
      kind: 'rows-skipped',
      message:
        `${counted(skipped, 'row')} of other files name records of ${file}, which cannot be read: ` +
        'left out, not listed',
    });
  }
}

/**
 * The bundle read: its counts and changes, and the school written unless this is a dry run, a row
 * is wrong (without --skip-invalid), or a bulk import would replace another school (without --replace).
 */
async function writeUnlessRefused(
  context: ImportContext,
  connection: ImportConnection,
  options: ImportOptions,
  startedAt: string,
): Promise<ImportOutcome> {
  const { book, problems, mode } = context;
  const counts = countRecords(book);
  counts.marks = await stagedMarkCount(connection);
  const refused = problems.hasFatal || (problems.count > 0 && !options.skipInvalid);
  const rows = context.rowsRead.count;
  const stored = await countSchoolRows(connection, SCHOOL_TABLES);
  const changes = changesOf({
    book,
    held: await heldSourcedIds(connection),
    stored,
    patches: context.patches,
    marks: await stagedMarkChanges(connection, mode === 'bulk'),
    cascaded: mode === 'delta' ? await cascadedDeletions(connection, deletedIds(book)) : new Map(),
  });
  const replaces = mode === 'bulk' && !options.replace ? await otherSchool(connection, book, stored) : undefined;
  if (options.dryRun || refused || replaces) {
    return { written: false, mode, problems, counts, rows, changes, replaces };
  }
  await writeSchool(
    context,
    connection,
    { count: counts.marks ?? 0, deleted: changes.marks?.deleted ?? 0 },
    {
      startedAt,
      mode,
      source: context.bundle.location,
      rowsWritten: Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0),
      rowsSkipped: problems.rowCount,
    },
  );
  // Committed: what a OneRoster provider's first page of users needs is worked out now, not by it.
  // The import is done whether or not this is saved: unsaved, the provider works it out itself.
  await saveUsersOutline(connection).catch(() => undefined);
  return { written: true, mode, problems, counts, rows, changes };
}

/** The school the store holds, when a bulk import would replace it with another (or the demo school). */
async function otherSchool(
  connection: ImportConnection,
  book: RosterBook,
  counts: ReadonlyMap<string, number>,
): Promise<OutcomeReplaces | undefined> {
  const stored = await storedSchool(connection);
  if (!stored) return undefined;
  const bundled = book.entries('schools')[0]?.sourcedId;
  if (stored.sourcedId !== null && (bundled === undefined || bundled === stored.sourcedId)) return undefined;
  return { ...stored, counts };
}

type OutcomeReplaces = NonNullable<ImportOutcome['replaces']>;

/**
 * The one entry for OneRoster records that do not come as a CSV bundle (a OneRoster REST sync):
 * `records` gives, per OneRoster file name (`users`, `classes`, ...), an async iterable of rows
 * keyed by the CSV binding's column headers (strings), and the manifest's facts
 * (`oneroster.version`, `file.NAME` bulk/delta/absent). The rows are read by the same readers as a
 * CSV bundle's: the same mapping, inference, warnings, problems, and the same one-transaction write.
 */
export function importRecords(
  store: Store,
  records: RosterRecords,
  options: Omit<ImportOptions, 'path' | 'bundle'>,
): Promise<ImportOutcome> {
  return importSchool(store, { ...options, path: records.location, bundle: recordsBundle(records) });
}

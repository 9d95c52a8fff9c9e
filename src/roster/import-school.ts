import { counted } from '../lib/counted';
import type { Store } from '../store/open-store';
import { type ImportConnection, openImportConnection } from '../store/roster/import-connection';
import { heldSourcedIds, loadLedger, recordLedger, storedRelations } from '../store/roster/ledger';
import { keptRowsOf } from '../store/roster/kept-fields';
import { cascadedDeletions } from '../store/roster/cascaded-deletions';
import { countSchoolRows, storedSchool } from '../store/roster/school-reader';
import { SCHOOL_TABLES, type SchoolTableName } from '../store/roster/school-tables';
import {
  abortSchoolChange,
  beginSchoolChange,
  clearSchoolTables,
  commitSchoolChange,
  deleteLinks,
  deleteWithDependents,
  patchRow,
  writeRows,
} from '../store/roster/school-writer';
import {
  assignMarkIds,
  createMarkStaging,
  dropUnchangedMarks,
  duplicateMarks,
  stagedMarkChanges,
  stagedMarkCount,
  stageMarks,
  writeStagedMarkFields,
  writeStagedMarks,
} from '../store/roster/staged-marks';
import type { BundleLimits } from './bundle-limits';
import { type Changes, changesOf, countRecords } from './change-counts';
import { type Bundle, openBundle } from './bundle-source';
import { type RosterRecords, recordsBundle } from './record-source';
import { readAcademicSessions, readOrgs } from './calendar-files';
import { readClasses, readCourses, readGradeLevels } from './class-files';
import { readEnrollments } from './enrollment-file';
import { readCategories, readLineItems, readResults } from './gradebook-files';
import type { ImportContext } from './import-context';
import { readManifest, refuseBulkOfNothing } from './manifest';
import { readRoles } from './roles-file';
import { readScoreScales } from './score-scales';
import { readOwnFiles } from './own-files';
import { KeptFields } from './kept-fields';
import { Problems } from './problems';
import type { Progress } from './progress';
import { type Entry, type ImportMode, RosterBook } from './roster-book';
import { ledgerView, preloadStore, recordOtherNames } from './stored-records';
import { readDemographics, readUsers } from './user-files';

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
    const context: ImportContext = {
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
    for (const { file, where, skipped } of book.brokenFiles()) {
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
    await writeSchool(context, connection, counts.marks ?? 0, {
      startedAt,
      mode,
      source: bundle.location,
      rowsWritten: Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0),
      rowsSkipped: problems.rowCount,
    });
    return { written: true, mode, problems, counts, rows, changes };
  } finally {
    kept.discard();
    await connection.run('DROP TABLE IF EXISTS staged_marks').catch(() => 0);
    await connection.release();
    await bundle.close();
  }
}

/** The ids a delta deletes, per table: those writeSchool deletes with their dependents. */
function deletedIds(book: RosterBook): Map<SchoolTableName, number[]> {
  return new Map(SCHOOL_TABLES.map((table) => [table.name, book.deletions(table.name).map((entry) => entry.id)]));
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

/** The files in the order their references need: what a row names is read before it. */
async function readBundle(
  context: ImportContext,
  connection: ImportConnection,
  highestMarkId: number,
  skipInvalid: boolean,
): Promise<void> {
  await readOrgs(context);
  if (context.school.needed) return;
  await readAcademicSessions(context);
  await readGradeLevels(context);
  await readCourses(context);
  const classes = await readClasses(context);
  await readUsers(context, context.version === '1.2' ? await readRoles(context) : undefined);
  await readDemographics(context);
  await readEnrollments(context, classes, connection);
  await readCategories(context);
  const scales = await readScoreScales(context);
  const scaleOf = await readLineItems(context, scales);
  const recordOf = recordFinder(context.book);
  await readOwnFiles(context, recordOf);
  await createMarkStaging(connection);
  await readResults(context, recordOf, (marks) => stageMarks(connection, marks), scaleOf, scales);
  const reader = context.readers.get('results.csv');
  if (!reader) return;
  for (const duplicate of await duplicateMarks(connection, skipInvalid)) {
    reader.failAt(
      duplicate.line,
      'sourcedId',
      'duplicate-sourcedId',
      `sourcedId "${duplicate.sourcedId}" is already on line ${duplicate.firstLine} of results.csv`,
    );
  }
  for (const clash of await assignMarkIds(connection, highestMarkId, skipInvalid)) {
    reader.failAt(
      clash.line,
      'metadata.contractId',
      'id-clash',
      `id ${clash.id} is asked for by results.csv:${clash.line} and results.csv:${clash.firstLine}`,
    );
  }
  if (context.mode === 'delta') await dropUnchangedMarks(connection);
}

/**
 * A student's enrolment record in a class section, by their ids; else, for a student enrolled
 * with no class section, their record in that class's year.
 */
function recordFinder(book: RosterBook): (studentId: number, classId: number) => number | undefined {
  const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));
  const records = new Map<string, number>();
  for (const record of book.all('student_records')) {
    const section = record.row?.class_id;
    const key =
      section === undefined || section === null ? `year ${idOf(record.row?.academic_year_id)}` : idOf(section);
    records.set(`${idOf(record.row?.student_id)} ${key}`, record.id);
  }
  const yearOfClass = new Map(book.all('classes').map((entry) => [entry.id, idOf(entry.row?.academic_year_id)]));
  return (studentId, classId) =>
    records.get(`${studentId} ${classId}`) ?? records.get(`${studentId} year ${yearOfClass.get(classId)}`);
}

/** A record's row in the store's column order, its references turned into ids. */
function valuesOf(entry: Entry, columns: readonly string[]): unknown[] {
  return [
    entry.id,
    ...columns.map((column) => {
      const value = entry.row?.[column];
      if (typeof value === 'object' && value !== null) return (value as Entry).id;
      return value ?? null;
    }),
  ];
}

async function writeSchool(
  context: ImportContext,
  connection: ImportConnection,
  markCount: number,
  log: Parameters<typeof commitSchoolChange>[1],
): Promise<void> {
  const { book } = context;
  const delta = context.mode === 'delta';
  await beginSchoolChange(connection);
  try {
    if (!delta) await clearSchoolTables(connection);
    // A delta's deletions before its rows: a scheduled class placed again may take the section and
    // subject of one it deletes.
    const deleted = deletedIds(book);
    for (const table of [...SCHOOL_TABLES].reverse()) {
      await deleteWithDependents(connection, table.name, deleted.get(table.name) ?? []);
    }
    // The write shows its progress as the read does: a line per table written.
    const { progress } = context;
    for (const table of SCHOOL_TABLES) {
      progress.file(`writing ${table.name.replace(/_/g, ' ')}`, 0);
      if (table.name === 'marks') {
        await writeStagedMarks(connection, delta);
        progress.fileDone(markCount);
      } else if (table.name === 'student_guardians') progress.fileDone(await writeLinks(context, connection));
      else {
        const rows = book.entries(table.name).map((entry) => valuesOf(entry, table.columns));
        await writeRows(connection, table, rows, delta);
        progress.fileDone(rows.length);
      }
    }
    for (const patch of context.patches) await patchRow(connection, patch.table, patch.id, patch.columns);
    const ledger = SCHOOL_TABLES.flatMap((table) =>
      book
        .entries(table.name)
        .map((entry) => [table.name, entry.sourcedId, entry.id, entry.modifiedAt ?? null] as const),
    );
    await recordLedger(connection, ledger);
    await recordOtherNames(context, connection);
    await context.kept.write(connection, !delta);
    await writeStagedMarkFields(connection, delta);
    await commitSchoolChange(connection, log);
  } catch (error) {
    await abortSchoolChange(connection);
    throw error;
  }
}

/** The guardian links; a delta restates the links of each user it lists. Returns how many are written. */
async function writeLinks(context: ImportContext, connection: ImportConnection): Promise<number> {
  const table = SCHOOL_TABLES.find((candidate) => candidate.name === 'student_guardians');
  if (!table) return 0;
  if (context.mode === 'delta') {
    await deleteLinks(
      connection,
      'student_id',
      context.book.entries('students').map((entry) => entry.id),
    );
    await deleteLinks(
      connection,
      'guardian_id',
      context.book.entries('guardians').map((entry) => entry.id),
    );
  }
  const live = (entry: Entry) => context.book.find(entry.table, entry.sourcedId) === entry;
  const rows = context.links
    .filter((link) => live(link.student) && live(link.guardian))
    .map((link) => [link.student.id, link.guardian.id, link.relation]);
  await writeRows(connection, table, rows, context.mode === 'delta');
  return rows.length;
}

import type { SchoolTableName } from '../store/roster/school-tables';
import type { Bundle } from './bundle-source';
import type { FieldReader } from './fields';
import type { KeptFields } from './kept-fields';
import type { Problems } from './problems';
import type { Progress } from './progress';
import type { Entry, ImportMode, RosterBook } from './roster-book';

/** What every file's reader shares while a bundle is read. */
export interface ImportContext {
  readonly bundle: Bundle;
  readonly book: RosterBook;
  readonly problems: Problems;
  readonly progress: Progress;
  readonly mode: ImportMode;
  /** --ids from-identifier: a user's integer identifier (or numeric sourcedId) becomes its id. */
  readonly fromIdentifier: boolean;
  /** For phone numbers, as AuthCode normalises them. */
  readonly defaultCountryCode: string;
  /** The manifest's `oneroster.version`. */
  readonly version: '1.1' | '1.2';
  /** The files the manifest declares, by OneRoster name (users, classes, ...). */
  readonly declared: ReadonlyMap<string, number>;
  /** The files the manifest declares absent (or leaves empty), with the manifest line of each. */
  readonly absent: ReadonlyMap<string, number>;
  /** Each file's reader once read, to report problems found later at a row of it. */
  readonly readers: Map<string, FieldReader>;
  /**
   * Which school of the bundle is imported: the one --school (IMPORT_SCHOOL) names, else the
   * bundle's only one. `candidates` are the bundle's orgs of type school; `needed` is set when there
   * are several and none was chosen. Rows of the others are left out, counted in `leftOut`.
   */
  readonly school: {
    readonly chosen: string | undefined;
    readonly candidates: Array<{ sourcedId: string; name: string; identifier: string }>;
    needed: boolean;
    readonly leftOut: { file: string; where: string; skipped: number };
  };
  /** Sourced ids of the bundle's orgs of any type, which classes, users and enrollments name. */
  readonly orgs: Set<string>;
  /** A student's first grade in users.csv, by sourcedId: the last way to find a class section. */
  readonly userGrades: Map<string, string>;
  /** Data rows read so far, for the summary. */
  readonly rowsRead: { count: number };
  /** In a delta, the store's links' relations by `studentId guardianId`, kept when the guardian's row is not in it. */
  readonly storedRelations: ReadonlyMap<string, string>;
  /** The store's kept rows of a file with these sourcedIds (see kept-fields.ts), by sourcedId. */
  readonly keptRows: (file: string, sourcedIds: readonly string[]) => Promise<Map<string, Record<string, string>>>;
  /** The guardian links of the bundle's users. */
  readonly links: Array<{ student: Entry; guardian: Entry; relation: string }>;
  /** The accepted rows' fields, for export to give back (see kept-fields.ts). */
  readonly kept: KeptFields;
  /** Changes to records not in the bundle (a delta's demographics), applied by id. */
  readonly patches: Array<{ table: SchoolTableName; id: number; columns: Record<string, unknown> }>;
  /** A delta's assignments handed from an ended enrolment to another that still holds them (teacher-assignments.ts). */
  readonly handOvers: Array<{ heir: string; id: number; from: string }>;
}

/** The reader of the file an entry came from. */
export function readerOf(context: ImportContext, file: string): FieldReader {
  const reader = context.readers.get(file);
  if (!reader) throw new Error(`no reader for ${file}`);
  return reader;
}

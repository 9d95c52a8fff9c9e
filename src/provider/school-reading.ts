import { restoreCell } from '../roster/spreadsheet-cells';
import type { UserPages } from '../roster/user-pages';

/** A cell as the exported file is read back: written as text, and a neutralised one restored. */
export function cellText(value: unknown): string {
  return restoreCell(value === null || value === undefined ? '' : String(value));
}

/** What a request reads of the school's OneRoster files (exported-rows.ts gives it). */
export interface ExportedFile {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Some of the school's OneRoster files by name ("users"); a file the export does not write is absent. */
export type ExportedSchool = ReadonlyMap<string, ExportedFile>;

/** What a scan hands over: a row's cells, under the file's columns. */
export type RowVisit = (columns: readonly string[], values: readonly string[]) => boolean | Promise<boolean>;

/** One request's reading of the school, on one connection: closed once the answer is written. */
export interface SchoolReading {
  /** Files read whole: the small ones a scope or a nested path is decided by. */
  whole(files: readonly string[]): Promise<ExportedSchool>;
  /** Hands each row of `file` to `visit` (false stops); its columns, undefined when the export writes no such file. */
  scan(file: string, visit: RowVisit): Promise<readonly string[] | undefined>;
  /**
   * users.csv read from the store a page at a time, when the reading does not hold the file
   * already; undefined when it does, or when the file is better read whole.
   */
  userPages?(): Promise<UserPages | undefined>;
  close(): Promise<void>;
}

/** Keeps what is worked out of the whole school once per version of the store (users.csv's outline). */
export type KeepOnce = <Value>(name: string, read: () => Promise<Value>) => Promise<Value>;

/** A reading of the store itself: its users.csv in pages, with what the pages share kept by `keep`. */
export interface StoreReading extends Omit<SchoolReading, 'userPages'> {
  userPages(keep: KeepOnce): Promise<UserPages | undefined>;
}

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
  close(): Promise<void>;
}

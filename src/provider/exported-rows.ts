import { openGivenBackRows } from '../roster/given-back-rows';
import { restoreCell } from '../roster/spreadsheet-cells';
import type { Store } from '../store/open-store';
import { openImportConnection } from '../store/roster/import-connection';

/**
 * The one place the provider takes the school's records from: the rows of the OneRoster 1.1 files
 * `export` writes (with the kept fields and the imported sourcedIds), as the text a reader of the
 * exported files sees, so that the provider answers exactly what `export` gives. Nothing is written
 * anywhere: each file is read from its collection's row source, only the files a request needs,
 * and a large one row by row (a page is found by reading it twice rather than holding it).
 */
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

/** A cell as the exported file is read back: written as text, and a neutralised one restored. */
function cellText(value: unknown): string {
  return restoreCell(value === null || value === undefined ? '' : String(value));
}

export interface ExportedRows {
  open(): Promise<SchoolReading>;
  /**
   * Said after a write. Nothing is cached across requests (each reading opens the store afresh),
   * so a record written is read back by the next request already.
   */
  changed(): void;
}

async function openReading(store: Store): Promise<SchoolReading> {
  const connection = await openImportConnection(store.connection);
  try {
    const rows = await openGivenBackRows(connection);
    const scan = async (file: string, visit: RowVisit) => {
      let columns: string[] | undefined;
      await rows.scan(file, {
        header: (names) => {
          columns = names.map((name) => cellText(name).trim());
        },
        row: (values) => visit(columns ?? [], values.map(cellText)),
      });
      return columns;
    };
    return {
      scan,
      async whole(files) {
        const school = new Map<string, ExportedFile>();
        for (const file of new Set(files)) {
          const read: string[][] = [];
          const columns = await scan(file, (_columns, values) => {
            read.push([...values]);
            return true;
          });
          if (columns) school.set(file, { columns, rows: read });
        }
        return school;
      },
      close: () => connection.release(),
    };
  } catch (error) {
    await connection.release();
    throw error;
  }
}

export function exportedRowsOf(store: Store): ExportedRows {
  return { open: () => openReading(store), changed: () => undefined };
}

import { openGivenBackRows } from '../roster/given-back-rows';
import type { Store } from '../store/open-store';
import { rosterVersion } from '../store/queries/roster-version';
import { openImportConnection } from '../store/roster/import-connection';
import { usersOutline } from '../roster/saved-users-outline';
import { userPages } from '../roster/user-pages';
import { SchoolCopy } from './school-copy';
import { cellText, type ExportedFile, type RowVisit, type SchoolReading, type StoreReading } from './school-reading';

export { cellText, type ExportedFile, type ExportedSchool, type RowVisit, type SchoolReading } from './school-reading';

/**
 * The one place the provider takes the school's records from: the rows of the OneRoster 1.1 files
 * `export` writes (with the kept fields and the imported sourcedIds), as the text a reader of the
 * exported files sees, so that the provider answers exactly what `export` gives. Nothing is written
 * anywhere: each file is read from its collection's row source, only the files a request needs.
 * Every file but the marks' is kept in memory once read, until the store's version says the
 * school changed (school-copy.ts); the marks are read row by row on each request.
 */
export interface ExportedRows {
  open(): Promise<SchoolReading>;
  /**
   * Said after a write. The copy needs no telling (the store's version moves with every change but
   * a mark's, and marks are read afresh each time), so this does nothing.
   */
  changed(): void;
  /** Stops reading files into memory in the background, and waits for such reads to end: before the store closes. */
  close(): Promise<void>;
}

/**
 * Opens a reading of the store itself, on a connection of its own: the row sources and kept fields
 * are read when a file is first scanned, and not at all for users.csv read a page at a time.
 */
async function openStoreReading(store: Store): Promise<StoreReading> {
  const connection = await openImportConnection(store.connection);
  let given: ReturnType<typeof openGivenBackRows> | undefined;
  const scan = async (file: string, visit: RowVisit) => {
    let columns: string[] | undefined;
    given ??= openGivenBackRows(connection);
    await (await given).scan(file, {
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
    async userPages(keep) {
      const outline = await keep('users', () => usersOutline(connection));
      return outline && userPages(connection, outline);
    },
    close: () => connection.release(),
  };
}

export function exportedRowsOf(store: Store): ExportedRows {
  const copy = new SchoolCopy(() => rosterVersion(store));
  return {
    open: () => copy.reading(() => openStoreReading(store)),
    changed: () => undefined,
    close: () => copy.close(),
  };
}

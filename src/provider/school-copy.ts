import type { ExportedFile, ExportedSchool, SchoolReading } from './school-reading';

/** The file read from the store on each request, row by row: the marks, millions in a large school. */
const READ_EACH_TIME: ReadonlySet<string> = new Set(['results']);

type FileRead = Promise<ExportedFile | undefined>;

/**
 * The school's OneRoster files but the marks', kept in memory once a request has read them: read
 * from the store, each request read every table the rows name and every field an import kept
 * before its first row (seconds for a large school). The copy is the store's at one version
 * (roster_versions, moved on by any change but a mark's, whichever process or node makes it): each
 * reading asks the version, one point lookup, and starts a new copy when it has moved.
 */
export class SchoolCopy {
  private version: number | undefined;
  private files = new Map<string, FileRead>();

  constructor(private readonly currentVersion: () => Promise<number>) {}

  /**
   * A request's reading: the files of the copy, and the marks (or a file the copy has not read yet)
   * from `openStore`'s reading, opened at most once and only when needed.
   */
  async reading(openStore: () => Promise<SchoolReading>): Promise<SchoolReading> {
    const version = await this.currentVersion();
    if (version !== this.version) {
      this.version = version;
      this.files = new Map();
    }
    const files = this.files;
    let store: Promise<SchoolReading> | undefined;
    const fromStore = () => {
      store ??= openStore();
      return store;
    };
    const fileOf = (name: string): FileRead => {
      if (READ_EACH_TIME.has(name)) return readWhole(fromStore, name);
      let file = files.get(name);
      if (!file) {
        const read = readWhole(fromStore, name);
        file = read;
        files.set(name, read);
        // A failed read (the store unreachable) is not kept: the next request tries again.
        read.catch(() => {
          if (files.get(name) === read) files.delete(name);
        });
      }
      return file;
    };
    return {
      async whole(names) {
        const school = new Map<string, ExportedFile>();
        for (const name of new Set(names)) {
          const file = await fileOf(name);
          if (file) school.set(name, file);
        }
        return school;
      },
      async scan(name, visit) {
        if (READ_EACH_TIME.has(name)) return (await fromStore()).scan(name, visit);
        const file = await fileOf(name);
        if (!file) return undefined;
        for (const row of file.rows) {
          // Most visits answer at once: a page of 10,000 rows is not made to wait a turn per row.
          const going = visit(file.columns, row);
          if (!(typeof going === 'boolean' ? going : await going)) break;
        }
        return file.columns;
      },
      async close() {
        if (store)
          await store.then(
            (reading) => reading.close(),
            () => undefined,
          );
      },
    };
  }
}

async function readWhole(fromStore: () => Promise<SchoolReading>, name: string): FileRead {
  const school: ExportedSchool = await (await fromStore()).whole([name]);
  return school.get(name);
}

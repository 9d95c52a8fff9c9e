import type { ExportedFile, ExportedSchool, KeepOnce, SchoolReading, StoreReading } from './school-reading';

/** The file read from the store on each request, row by row: the marks, millions in a large school. */
const READ_EACH_TIME: ReadonlySet<string> = new Set(['results']);

type FileRead = Promise<ExportedFile | undefined>;

/** Keeps each read promised in `kept` by its name; a failed read (the store unreachable) is not kept. */
function keptIn<Value>(kept: Map<string, Promise<unknown>>, name: string, read: () => Promise<Value>): Promise<Value> {
  const found = kept.get(name) as Promise<Value> | undefined;
  if (found) return found;
  const reading = read();
  kept.set(name, reading);
  reading.catch(() => {
    if (kept.get(name) === reading) kept.delete(name);
  });
  return reading;
}

/**
 * The school's OneRoster files but the marks', kept in memory once a request has read them: read
 * from the store, each request read every table the rows name and every field an import kept
 * before its first row (seconds for a large school). The copy is the store's at one version
 * (roster_versions, moved on by any change but a mark's, whichever process or node makes it): each
 * reading asks the version, one point lookup, and starts a new copy when it has moved. A plain
 * page of users that the copy does not hold is read from the store a page at a time instead (only
 * an outline of users.csv is kept), so that the first read after a start or a change does not wait
 * for the whole file.
 */
export class SchoolCopy {
  private version: number | undefined;
  private files = new Map<string, Promise<unknown>>();
  private outlines = new Map<string, Promise<unknown>>();

  constructor(private readonly currentVersion: () => Promise<number>) {}

  /**
   * A request's reading: the files of the copy, and the marks (or a file the copy has not read yet)
   * from `openStore`'s reading, opened at most once and only when needed.
   */
  async reading(openStore: () => Promise<StoreReading>): Promise<SchoolReading> {
    const version = await this.currentVersion();
    if (version !== this.version) {
      this.version = version;
      this.files = new Map();
      this.outlines = new Map();
    }
    const { files, outlines } = this;
    const keep: KeepOnce = (name, read) => keptIn(outlines, name, read);
    let store: Promise<StoreReading> | undefined;
    const fromStore = () => {
      store ??= openStore();
      return store;
    };
    const fileOf = (name: string): FileRead =>
      READ_EACH_TIME.has(name) ? readWhole(fromStore, name) : keptIn(files, name, () => readWhole(fromStore, name));
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
      // A file the copy holds, or is reading for another request, is read from the copy.
      userPages: async () => (files.has('users') ? undefined : (await fromStore()).userPages(keep)),
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

async function readWhole(fromStore: () => Promise<StoreReading>, name: string): FileRead {
  const school: ExportedSchool = await (await fromStore()).whole([name]);
  return school.get(name);
}

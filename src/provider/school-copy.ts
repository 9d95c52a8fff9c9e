import type { ExportedFile, ExportedSchool, KeepOnce, SchoolReading, StoreReading } from './school-reading';

/** The file read from the store on each request, row by row: the marks, millions in a large school. */
const READ_EACH_TIME: ReadonlySet<string> = new Set(['results']);

type FileRead = Promise<ExportedFile | undefined>;

/** A file read whole into the copy after a page of it was read from the store (users.csv alone so far). */
interface Fill {
  readonly name: string;
  readonly version: number;
  /** The copy's files at `version`, which the file joins once read. */
  readonly files: Map<string, Promise<unknown>>;
  readonly openStore: () => Promise<StoreReading>;
}

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
 * for the whole file; once that page is answered, the copy reads the file whole in the background,
 * and the plain pages after it are answered from the copy.
 */
export class SchoolCopy {
  private version: number | undefined;
  private files = new Map<string, Promise<unknown>>();
  private outlines = new Map<string, Promise<unknown>>();
  /** The background reads of the current version, by file: one at a time for each. */
  private filling = new Map<string, Promise<void>>();
  /** Every background read under way, of any version, for close() to wait for. */
  private readonly running = new Set<Promise<void>>();
  private closing = false;

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
      this.filling = new Map();
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
    let paged = false;
    const userPages = async () => {
      if (files.has('users')) return undefined;
      const pages = await (await fromStore()).userPages(keep);
      paged ||= pages !== undefined;
      return pages;
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
      // A file the copy holds, or is reading for another request, is read from the copy.
      userPages,
      close: async () => {
        if (store)
          await store.then(
            (reading) => reading.close(),
            () => undefined,
          );
        // Started once the page is answered, so that the whole file's read does not slow the page.
        if (paged) this.fillInBackground({ name: 'users', version, files, openStore });
      },
    };
  }

  /**
   * Stops the background reads (each at its next row; what they read is dropped) and waits for
   * them to close their readings: called before the store closes.
   */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.running]);
  }

  /** Reads `fill.name` whole into the copy, unless it holds it, is reading it, or has moved on. */
  private fillInBackground(fill: Fill): void {
    const { name, version, files } = fill;
    if (this.closing || this.version !== version || files.has(name) || this.filling.has(name)) return;
    // A failed read (the store unreachable, or closed under it) is not kept: a later page starts another.
    const reading = this.fill(fill).catch(() => undefined);
    this.filling.set(name, reading);
    this.running.add(reading);
    void reading.then(() => {
      this.running.delete(reading);
      if (this.filling.get(name) === reading) this.filling.delete(name);
    });
  }

  private async fill({ name, version, files, openStore }: Fill): Promise<void> {
    const stopped = () => this.closing || this.version !== version;
    if ((await this.currentVersion()) !== version || stopped()) return;
    const store = await openStore();
    try {
      const file = await readUnlessStopped(store, name, stopped);
      // A change committed while the file was read may be half in it: the version says whether one was.
      if (file === 'stopped' || stopped() || (await this.currentVersion()) !== version) return;
      if (!files.has(name)) files.set(name, Promise.resolve(file));
    } finally {
      await store.close();
    }
  }
}

/** The file read whole, row by row, or 'stopped' when `stopped` said so before its end. */
async function readUnlessStopped(
  store: StoreReading,
  name: string,
  stopped: () => boolean,
): Promise<ExportedFile | undefined | 'stopped'> {
  const rows: string[][] = [];
  let early = false;
  const columns = await store.scan(name, (_columns, values) => {
    early = stopped();
    if (!early) rows.push([...values]);
    return !early;
  });
  if (early) return 'stopped';
  return columns && { columns, rows };
}

async function readWhole(fromStore: () => Promise<StoreReading>, name: string): FileRead {
  const school: ExportedSchool = await (await fromStore()).whole([name]);
  return school.get(name);
}

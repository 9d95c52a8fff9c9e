import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  cellText,
  type ExportedFile,
  type ExportedSchool,
  type KeepOnce,
  type SchoolReading,
  type StoreReading,
} from './school-reading';

/** The file read from the store on each request, row by row: the marks, millions in a large school. */
const READ_EACH_TIME: ReadonlySet<string> = new Set(['results']);

type FileRead = Promise<ExportedFile | undefined>;

/**
 * How long a read into the copy holds the service's thread at most before it gives it back, and
 * at most how many rows it makes meanwhile: a large school's users.csv takes seconds to make, and
 * a request arriving meanwhile (an LMS's PUT of a mark, a few milliseconds) waits for a slice, not
 * for the file.
 */
const SLICE_MS = 1;
const ROWS_A_TURN = 250;
/** Users read and made per statement while the copy is filled: a slice's worth at most. */
const USERS_A_PIECE = 20;

/** A file read whole into the copy, behind the requests, a slice at a time. */
interface Fill {
  readonly name: string;
  readonly version: number;
  /** The copy's files at `version`, which the file joins once read. */
  readonly files: Map<string, Promise<unknown>>;
  readonly openStore: () => Promise<StoreReading>;
  /** What the pages of users.csv share at `version` (its outline). */
  readonly keep: KeepOnce;
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
 * from the store, a file takes the tables its rows name and the fields an import kept of it
 * (seconds for a large school's users or enrolments). The copy is the store's at one version
 * (roster_versions, moved on by any change but a mark's, whichever process or node makes it): each
 * reading asks the version, one point lookup, and starts a new copy when it has moved. A file is
 * read into the copy by one read at a time, shared by every request that needs it, a slice of rows
 * at a time with the thread given back between slices, so that other requests go on meanwhile
 * (users.csv by the same pages as below, a statement a slice). A plain page of users that the copy
 * does not hold is read from the store a page at a time instead (only an outline of users.csv is
 * kept), so that the first read after a start or a change does not wait for the whole file; once
 * that page is answered, the copy reads the file in the background, and the plain pages after it
 * are answered from the copy.
 */
export class SchoolCopy {
  private version: number | undefined;
  private files = new Map<string, Promise<unknown>>();
  private outlines = new Map<string, Promise<unknown>>();
  /** The reads into the copy of the current version, by file: one at a time for each. */
  private filling = new Map<string, Promise<void>>();
  /** Every read into the copy under way, of any version, for close() to wait for. */
  private readonly running = new Set<Promise<void>>();
  private closing = false;

  constructor(private readonly currentVersion: () => Promise<number>) {}

  /**
   * A request's reading: the files of the copy, and the marks (or a file the copy could not read)
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
    const copied = async (name: string): FileRead => {
      // A request that holds a reading of its own does not wait for another connection's read: on
      // PostgreSQL, requests holding every connection of the pool would wait for one another.
      if (!files.has(name) && !store) await this.fillInBackground({ name, version, files, openStore, keep });
      // Read by the request itself when the copy could not take it (the school changed meanwhile).
      return keptIn(files, name, () => readWhole(fromStore, name));
    };
    const fileOf = (name: string): FileRead => (READ_EACH_TIME.has(name) ? readWhole(fromStore, name) : copied(name));
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
        if (paged) void this.fillInBackground({ name: 'users', version, files, openStore, keep });
      },
    };
  }

  /**
   * Stops the reads into the copy (each at its next row; what they read is dropped) and waits for
   * them to close their readings: called before the store closes.
   */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.running]);
  }

  /**
   * Reads `fill.name` whole into the copy, unless it holds it or has moved on; a read under way is
   * joined. Resolves when the read ends, whether the file joined the copy or not.
   */
  private fillInBackground(fill: Fill): Promise<void> {
    const { name, version, files } = fill;
    if (this.closing || this.version !== version || files.has(name)) return Promise.resolve();
    const under = this.filling.get(name);
    if (under) return under;
    // A failed read (the store unreachable, or closed under it) is not kept: a later read starts another.
    const reading = this.fill(fill).catch(() => undefined);
    this.filling.set(name, reading);
    this.running.add(reading);
    void reading.then(() => {
      this.running.delete(reading);
      if (this.filling.get(name) === reading) this.filling.delete(name);
    });
    return reading;
  }

  private async fill({ name, version, files, openStore, keep }: Fill): Promise<void> {
    const stopped = () => this.closing || this.version !== version;
    if ((await this.currentVersion()) !== version || stopped()) return;
    const store = await openStore();
    try {
      const file = await readInSlices(store, name, keep, stopped);
      // A change committed while the file was read may be half in it: the version says whether one was.
      if (file === 'stopped' || stopped() || (await this.currentVersion()) !== version) return;
      if (!files.has(name)) files.set(name, Promise.resolve(file));
    } finally {
      await store.close();
    }
  }
}

/** Rows gathered into a file, the thread given back every slice (SLICE_MS, ROWS_A_TURN), until `stopped`. */
class SlicedRows {
  readonly rows: string[][] = [];
  early = false;
  private sliceStart = performance.now();
  private sliceRows = 0;

  constructor(private readonly stopped: () => boolean) {}

  async take(values: readonly string[]): Promise<boolean> {
    this.sliceRows += 1;
    if (this.sliceRows >= ROWS_A_TURN || performance.now() - this.sliceStart >= SLICE_MS) {
      await nextTurn();
      this.sliceStart = performance.now();
      this.sliceRows = 0;
    }
    this.early ||= this.stopped();
    if (!this.early) this.rows.push([...values]);
    return !this.early;
  }
}

/**
 * The file read whole, a slice at a time, or 'stopped' when `stopped` said so before its end:
 * users.csv by its pages (a statement a slice, each slice's rows alone made), another file by
 * its scan (what its rows name read first, then its rows made a slice at a time).
 */
async function readInSlices(
  store: StoreReading,
  name: string,
  keep: KeepOnce,
  stopped: () => boolean,
): Promise<ExportedFile | undefined | 'stopped'> {
  const sliced = new SlicedRows(stopped);
  const pages = name === 'users' ? await store.userPages(keep) : undefined;
  let columns: readonly string[] | undefined;
  if (pages) {
    columns = (await pages.columns()).map((column) => cellText(column).trim());
    await pages.rows(
      undefined,
      0,
      pages.total(undefined),
      (values) => sliced.take(values.map(cellText)),
      USERS_A_PIECE,
    );
  } else columns = await store.scan(name, (_columns, values) => sliced.take(values));
  if (sliced.early) return 'stopped';
  return columns && { columns, rows: sliced.rows };
}

async function readWhole(fromStore: () => Promise<StoreReading>, name: string): FileRead {
  const school: ExportedSchool = await (await fromStore()).whole([name]);
  return school.get(name);
}

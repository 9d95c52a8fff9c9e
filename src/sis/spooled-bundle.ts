import { closeSync, createReadStream, createWriteStream, openSync, writeSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SisVersion } from '../config/sis-settings';
import { csvLine } from '../roster/csv-line';
import { ROLES_COLUMNS } from '../roster/oneroster-columns';
import { COLLECTIONS, type CollectionName } from './collections';
import type { Row } from '../roster/collections/rest-rows';

/**
 * The provider's records written to a temporary folder as a OneRoster CSV bundle while they are
 * read, so that a school of millions of results is held on disk, not in memory, and the import
 * then reads it as it reads any bundle: one mapping, the import's rules, one transaction. A
 * record sent twice (offset paging over data that moves) is written once. Each file's header is
 * its collection's columns and those the first page's records add (metadata.*); when later
 * records add more, the file is written again at the end under the longer header.
 */

/** Every sourcedId of a file is remembered up to this many; past it, those of the last pages only. */
const EXACT_IDS = 250_000;
/** Past the bound, the ids of at least this many last pages (at most twice as many) are remembered. */
const RECENT_PAGES = 8;

/**
 * The sourcedIds a file has been sent. Offset paging over data that moves sends a record again
 * on a nearby page; a file of millions (results) keeps the ids of its last pages only, so that its
 * memory stays bounded, and a record repeated further apart reaches the import, which reports it.
 * The last pages are two generations of RECENT_PAGES pages each, the older dropped when the newer
 * is full: two lookups a record, not one a page (8 pages, 5,000,000 results).
 */
class SeenIds {
  private readonly all = new Set<string>();
  private recent: { current: Set<string>; previous: Set<string>; pages: number } | undefined;

  constructor(private readonly exactIds: number) {}

  has(id: string): boolean {
    return this.recent ? this.recent.current.has(id) || this.recent.previous.has(id) : this.all.has(id);
  }

  add(id: string): void {
    if (this.recent) this.recent.current.add(id);
    else this.all.add(id);
  }

  nextPage(): void {
    if (!this.recent && this.all.size >= this.exactIds) {
      this.all.clear();
      this.recent = { current: new Set(), previous: new Set(), pages: 0 };
    }
    if (!this.recent) return;
    this.recent.pages += 1;
    if (this.recent.pages > RECENT_PAGES) {
      this.recent = { current: new Set(), previous: this.recent.current, pages: 1 };
    }
  }

  forget(): void {
    this.all.clear();
    this.recent = undefined;
  }
}
export type FileName = CollectionName | 'roles';

interface SpoolFile {
  readonly columns: string[];
  readonly known: Set<string>;
  /** The open file; closed once the collection is read whole. */
  fd: number | undefined;
  /** Columns of the header written first (the collection's, and those of the first page's records). */
  headerColumns: number;
  headerBytes: number;
  /** Bytes written, header included. */
  bytes: number;
  readonly seen: SeenIds;
  rows: number;
  deletions: number;
}

/**
 * Files are written synchronously: the spool runs on a thread of its own (spool-thread.ts), where
 * nothing else waits, and a file's size is then the bytes another reader of it can read.
 */
const DUPLICATES_LISTED = 20;

export class SpooledBundle {
  private readonly files = new Map<FileName, SpoolFile>();
  /** Records sent more than once, counted once. */
  duplicates = 0;
  /** The first of them (`users "s3"`), for the report to list: a bounded list, whatever the provider sends. */
  readonly duplicated: string[] = [];

  private constructor(
    readonly folder: string,
    private readonly exactIds: number,
  ) {}

  /**
   * A bundle in `folder` (a new temporary folder when none is given) whose manifest declares every
   * collection in `mode`: it is written first, so that the import can begin while records arrive.
   */
  static async create(
    mode: 'bulk' | 'delta',
    version: SisVersion,
    options: { folder?: string; exactIds?: number } = {},
  ): Promise<SpooledBundle> {
    const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'sis-sync-')));
    const manifest: string[][] = [
      ['propertyName', 'value'],
      ['manifest.version', '1.0'],
      ['oneroster.version', version],
      ['source.systemName', 'OneRoster REST sync'],
      ...COLLECTIONS.map((collection) => [`file.${collection.name}`, mode]),
    ];
    await writeFile(join(folder, 'manifest.csv'), manifest.map((line) => csvLine(line, '\n')).join(''));
    const bundle = new SpooledBundle(folder, options.exactIds ?? EXACT_IDS);
    // Every file is there from the start, so that a reader of a file still growing can open it.
    for (const collection of COLLECTIONS) bundle.file(collection.name);
    return bundle;
  }

  private file(name: FileName): SpoolFile {
    let file = this.files.get(name);
    if (!file) {
      const columns = [
        ...(name === 'roles' ? ROLES_COLUMNS : (COLLECTIONS.find((c) => c.name === name)?.columns ?? [])),
      ];
      file = {
        columns,
        known: new Set(columns),
        fd: openSync(join(this.folder, `${name}.csv`), 'w'),
        headerColumns: 0,
        headerBytes: 0,
        bytes: 0,
        seen: new SeenIds(this.exactIds),
        rows: 0,
        deletions: 0,
      };
      this.files.set(name, file);
    }
    return file;
  }

  /** Writes the rows of one page; a sourcedId already written to this file is skipped. Returns the rows written. */
  add(name: FileName, rows: readonly Row[]): number {
    const file = this.file(name);
    if (file.fd === undefined) throw new Error(`${name}.csv is already whole`);
    file.seen.nextPage();
    const taken: Row[] = [];
    for (const row of rows) {
      if (file.seen.has(row.sourcedId)) {
        this.duplicates += 1;
        if (this.duplicated.length < DUPLICATES_LISTED)
          this.duplicated.push(`${name} "${row.sourcedId.slice(0, 100)}"`);
        continue;
      }
      file.seen.add(row.sourcedId);
      for (const column of Object.keys(row)) {
        if (!file.known.has(column)) {
          file.known.add(column);
          file.columns.push(column);
        }
      }
      taken.push(row);
      file.rows += 1;
      if (row.status === 'tobedeleted') file.deletions += 1;
    }
    // The header goes with the first rows, so that the columns of the first page's records are in it.
    let text = file.bytes === 0 ? this.header(file) : '';
    for (const row of taken)
      text += csvLine(
        file.columns.map((column) => row[column] ?? ''),
        '\n',
      );
    this.write(file, text);
    return taken.length;
  }

  /** Bytes written to the file so far, and whether records added columns after its header was written. */
  state(name: FileName): { bytes: number; grew: boolean } {
    const file = this.files.get(name);
    return { bytes: file?.bytes ?? 0, grew: file !== undefined && file.columns.length > file.headerColumns };
  }

  /** Records written, and those among them marked tobedeleted. */
  count(name: FileName): { rows: number; deletions: number } {
    const file = this.files.get(name);
    return { rows: file?.rows ?? 0, deletions: file?.deletions ?? 0 };
  }

  /**
   * The collection is read whole: its file is closed, under the longer header when records added
   * columns after it was written (5,000,000 results are not copied otherwise). Returns its size.
   */
  async end(name: FileName): Promise<number> {
    const file = this.file(name);
    if (file.fd === undefined) return file.bytes;
    if (file.bytes === 0) this.write(file, this.header(file));
    file.seen.forget();
    closeSync(file.fd);
    file.fd = undefined;
    if (file.columns.length > file.headerColumns) {
      const path = join(this.folder, `${name}.csv`);
      const target = createWriteStream(`${path}.headed`);
      const header = csvLine(file.columns, '\n');
      target.write(header);
      await pipeline(createReadStream(path, { start: file.headerBytes }), target);
      await rename(`${path}.headed`, path);
      file.bytes += Buffer.byteLength(header) - file.headerBytes;
      file.headerColumns = file.columns.length;
    }
    return file.bytes;
  }

  /** Ends every file: the folder is then a bundle to import. */
  async finish(): Promise<string> {
    // Every collection's file was opened at create; roles.csv when 1.2 users came.
    for (const name of this.files.keys()) await this.end(name);
    return this.folder;
  }

  /** Closes what is open (a sync that failed); the folder is the caller's to remove. */
  close(): void {
    for (const file of this.files.values()) {
      if (file.fd !== undefined) closeSync(file.fd);
      file.fd = undefined;
    }
  }

  async remove(): Promise<void> {
    this.close();
    await rm(this.folder, { recursive: true, force: true });
  }

  private header(file: SpoolFile): string {
    const header = csvLine(file.columns, '\n');
    file.headerColumns = file.columns.length;
    file.headerBytes = Buffer.byteLength(header);
    return header;
  }

  private write(file: SpoolFile, text: string): void {
    if (text === '' || file.fd === undefined) return;
    const bytes = Buffer.from(text);
    let written = 0;
    while (written < bytes.length) written += writeSync(file.fd, bytes, written);
    file.bytes += bytes.length;
  }
}

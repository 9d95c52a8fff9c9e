import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import type { SisVersion } from '../config/sis-settings';
import { ROLES_COLUMNS } from '../roster/oneroster-columns';
import { COLLECTIONS, type CollectionName } from './collections';
import type { Row } from './json-rows';

/**
 * The provider's records written to a temporary folder as a OneRoster CSV bundle while they are
 * read, so that a school of millions of results is held on disk, not in memory, and the import
 * then reads it as it reads any bundle: one mapping, the import's rules, one transaction. A
 * record sent twice (offset paging over data that moves) is written once. Each file starts with
 * its collection's columns; when records add columns (metadata.*), the file is written again at
 * the end under the longer header.
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
type FileName = CollectionName | 'roles';

interface SpoolFile {
  readonly columns: string[];
  readonly known: Set<string>;
  /** The file, its header (the collection's columns) written first. */
  readonly body: WriteStream;
  /** The bytes of that header: when records add columns, the rows after it go under a new one. */
  readonly headerBytes: number;
  readonly columnsAtStart: number;
  readonly seen: SeenIds;
  rows: number;
  deletions: number;
}

export class SpooledBundle {
  private readonly files = new Map<FileName, SpoolFile>();
  /** Records sent more than once, counted once. */
  duplicates = 0;

  private constructor(
    readonly folder: string,
    private readonly exactIds: number,
  ) {}

  static async create(exactIds = EXACT_IDS): Promise<SpooledBundle> {
    return new SpooledBundle(await mkdtemp(join(tmpdir(), 'sis-sync-')), exactIds);
  }

  private file(name: FileName): SpoolFile {
    let file = this.files.get(name);
    if (!file) {
      const columns = [
        ...(name === 'roles' ? ROLES_COLUMNS : (COLLECTIONS.find((c) => c.name === name)?.columns ?? [])),
      ];
      const header = stringify([columns]);
      const body = createWriteStream(join(this.folder, `${name}.csv`));
      body.write(header);
      file = {
        columns,
        known: new Set(columns),
        body,
        headerBytes: Buffer.byteLength(header),
        columnsAtStart: columns.length,
        seen: new SeenIds(this.exactIds),
        rows: 0,
        deletions: 0,
      };
      this.files.set(name, file);
    }
    return file;
  }

  /** Writes the rows of one page; a sourcedId already written to this file is skipped. */
  async add(name: FileName, rows: readonly Row[]): Promise<void> {
    const file = this.file(name);
    file.seen.nextPage();
    let text = '';
    for (const row of rows) {
      if (file.seen.has(row.sourcedId)) {
        this.duplicates += 1;
        continue;
      }
      file.seen.add(row.sourcedId);
      for (const column of Object.keys(row)) {
        if (!file.known.has(column)) {
          file.known.add(column);
          file.columns.push(column);
        }
      }
      text += csvLine(file.columns.map((column) => row[column] ?? ''));
      file.rows += 1;
      if (row.status === 'tobedeleted') file.deletions += 1;
    }
    if (text !== '' && !file.body.write(text)) await once(file.body, 'drain');
  }

  /** Records written, and those among them marked tobedeleted. */
  count(name: FileName): { rows: number; deletions: number } {
    const file = this.files.get(name);
    return { rows: file?.rows ?? 0, deletions: file?.deletions ?? 0 };
  }

  /** Writes each file (header, then its rows) and the manifest; the folder is then a bundle to import. */
  async finish(mode: 'bulk' | 'delta', version: SisVersion): Promise<string> {
    for (const collection of COLLECTIONS) this.file(collection.name);
    const manifest: string[][] = [
      ['propertyName', 'value'],
      ['manifest.version', '1.0'],
      ['oneroster.version', version],
      ['source.systemName', 'OneRoster REST sync'],
    ];
    for (const [name, file] of this.files) {
      file.seen.forget();
      file.body.end();
      await once(file.body, 'close');
      // Copied under the longer header only when records added columns (metadata.*): 5,000,000
      // results are not written twice otherwise.
      if (file.columns.length > file.columnsAtStart) {
        const path = join(this.folder, `${name}.csv`);
        const target = createWriteStream(`${path}.headed`);
        target.write(stringify([file.columns]));
        await pipeline(createReadStream(path, { start: file.headerBytes }), target);
        await rename(`${path}.headed`, path);
      }
      if (name !== 'roles') manifest.push([`file.${name}`, mode]);
    }
    await writeFile(join(this.folder, 'manifest.csv'), stringify(manifest));
    return this.folder;
  }

  async remove(): Promise<void> {
    // Ended, not destroyed: a page written just before a failure is still being flushed.
    for (const file of this.files.values()) {
      if (file.body.closed) continue;
      file.body.end();
      await once(file.body, 'close').catch(() => undefined);
    }
    await rm(this.folder, { recursive: true, force: true });
  }
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV line (RFC 4180: a field with a quote, comma or line break quoted, its quotes doubled).
 * Written here rather than by csv-stringify, which took a third of the time a page spends here.
 */
function csvLine(values: readonly string[]): string {
  let line = '';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) line += ',';
    line += NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
  }
  return `${line}\n`;
}

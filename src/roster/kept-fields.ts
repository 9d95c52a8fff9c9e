import { openSync, closeSync, writeSync, readSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportConnection } from '../store/roster/import-connection';
import { writeKeptFields } from '../store/roster/kept-fields';

/**
 * Columns never kept, whatever a bundle holds: a OneRoster users.csv may carry each user's
 * password, which the service does not read and must not store (nor so export, back up or copy).
 */
export function isNeverKept(column: string): boolean {
  return column.trim().toLowerCase() === 'password';
}

/** Kept rows as a store holds them, but a column never kept that an older version of the service kept. */
export function withoutNeverKept<Rows extends Map<string, Map<string, Record<string, string>>>>(kept: Rows): Rows {
  for (const rows of kept.values())
    for (const fields of rows.values())
      for (const column of Object.keys(fields)) if (isNeverKept(column)) delete fields[column];
  return kept;
}

/** Rows written to the store per statement batch. */
const WRITE_BATCH = 5_000;

/**
 * The fields of the rows an import accepts, kept so that `export` gives back the bundle the school
 * gave (the district org, grading periods, email, location, metadata.* ... that the store does not
 * model). The readers of OneRoster files keep each accepted row whole (read-file.ts does it for
 * them); a reader of a file it reads itself, or one that keeps only some fields of a large file,
 * calls `keepUnusedFields` while reading. Written with the school, in the same transaction.
 *
 * The rows go to a spool file as they are read, one JSON line each, and only which line is the
 * latest of each row stays in memory: a large school's 300,000 users and enrolments held as JSON
 * took the import past its heap bound (IMPORT_HEAP_MB).
 */
export class KeptFields {
  /** "file\0sourcedId" -> the number of its latest line in the spool. */
  private readonly latest = new Map<string, number>();
  private readonly forgotten: Array<[string, string]> = [];
  private spool: { folder: string; path: string; fd: number } | undefined;
  private lines = 0;

  /**
   * Keeps a row's fields (header name -> value; empty values are dropped) under its file
   * (`users.csv`) and sourcedId; a later call for the same row replaces the earlier.
   */
  keepUnusedFields(file: string, sourcedId: string, row: Readonly<Record<string, string>>): void {
    const fields: Record<string, string> = {};
    // The sourcedId under the binding's spelling whatever the header's: it marks a row kept whole.
    for (const name in row)
      if (row[name] !== '' && !isNeverKept(name))
        fields[name.toLowerCase() === 'sourcedid' ? 'sourcedId' : name] = row[name];
    const spool = this.openSpool();
    writeSync(spool.fd, `${JSON.stringify([file, sourcedId, JSON.stringify(fields)])}\n`);
    this.latest.set(`${file}\0${sourcedId}`, this.lines);
    this.lines += 1;
  }

  /** A row a delta deletes (status tobedeleted): its kept fields go too. */
  forget(file: string, sourcedId: string): void {
    this.latest.delete(`${file}\0${sourcedId}`);
    this.forgotten.push([file, sourcedId]);
  }

  /** Writes what was kept, read back from the spool in batches: a bulk import replaces all, a delta its rows. */
  async write(connection: ImportConnection, bulk: boolean): Promise<void> {
    try {
      await writeKeptFields(connection, bulk, this.batches(), this.forgotten);
    } finally {
      this.discard();
    }
  }

  /** The latest line of every row still kept, in batches, read back in order. */
  private async *batches(): AsyncGenerator<Array<readonly [string, string, string]>> {
    if (!this.spool) return;
    const wanted = new Set(this.latest.values());
    const fd = this.spool.fd;
    const buffer = Buffer.alloc(1 << 20);
    let position = 0;
    let carry = '';
    let line = 0;
    let batch: Array<readonly [string, string, string]> = [];
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      const parts = (carry + buffer.toString('utf8', 0, read)).split('\n');
      carry = parts.pop() ?? '';
      for (const text of parts) {
        if (wanted.has(line)) batch.push(JSON.parse(text) as [string, string, string]);
        line += 1;
        if (batch.length >= WRITE_BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield batch;
  }

  private openSpool(): { folder: string; path: string; fd: number } {
    if (!this.spool) {
      const folder = mkdtempSync(join(tmpdir(), 'school-kept-fields-'));
      const path = join(folder, 'rows.jsonl');
      // The spool holds the school's rows: readable by this user alone, and removed after the write.
      this.spool = { folder, path, fd: openSync(path, 'w+', 0o600) };
    }
    return this.spool;
  }

  /** Closes and removes the spool, whether or not it was written (a refused import, a dry run). */
  discard(): void {
    if (!this.spool) return;
    closeSync(this.spool.fd);
    rmSync(this.spool.folder, { recursive: true, force: true });
    this.spool = undefined;
  }
}

import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../lib/private-files';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import { csvLine } from './csv-line';
import type { SpreadsheetCells } from './spreadsheet-cells';

/**
 * Writes the files of a bundle, to a folder or, for a path ending in .zip, into a zip, each file
 * streamed as its rows come (UTF-8, CRLF as SIS exports write it, quoted where a field needs it).
 */
export interface BundleWriter {
  file(name: string, header: readonly string[]): CsvWriter;
  /** A file the bundle does not have: in a folder, one of that name from an earlier export is removed. */
  omit(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface CsvWriter {
  /** Resolves once the row is taken, waiting while the file is behind (so memory stays bounded). */
  row(values: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
}

/** `cells` sees every text cell written and says what to write for it (see spreadsheet-cells.ts). */
export async function openBundleWriter(path: string, cells?: SpreadsheetCells): Promise<BundleWriter> {
  if (path.toLowerCase().endsWith('.zip')) return zipWriter(path, cells);
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return {
    file: (name, header) =>
      csvWriter(createWriteStream(join(path, name), { mode: PRIVATE_FILE_MODE }), header, cellsOf(name, cells)),
    omit: (name) => rm(join(path, name), { force: true }),
    close: async () => {},
  };
}

type CellHook = (row: number, column: number, value: string) => string;

function cellsOf(name: string, cells: SpreadsheetCells | undefined): CellHook | undefined {
  return cells && ((row, column, value) => cells.written(name, row, column, value));
}

function zipWriter(path: string, cells: SpreadsheetCells | undefined): BundleWriter {
  const zip = new yazl.ZipFile();
  const output = createWriteStream(path, { mode: PRIVATE_FILE_MODE });
  zip.outputStream.pipe(output);
  return {
    file(name, header) {
      const entry = new PassThrough();
      zip.addReadStream(entry, name);
      return csvWriter(entry, header, cellsOf(name, cells));
    },
    async omit() {},
    async close() {
      zip.end();
      await finished(output);
    },
  };
}

function csvWriter(target: Writable, header: readonly string[], hook: CellHook | undefined): CsvWriter {
  let row = 0;
  const write = async (values: readonly unknown[]) => {
    row += 1;
    const cells = values.map((value, index) => {
      if (value === null || value === undefined) return '';
      const text = String(value);
      return hook && typeof value === 'string' ? hook(row, index + 1, text) : text;
    });
    if (!target.write(csvLine(cells, '\r\n'))) await new Promise((resolve) => target.once('drain', resolve));
  };
  let ready = write(header);
  return {
    async row(values) {
      await ready;
      ready = write(values);
      await ready;
    },
    async end() {
      await ready;
      target.end();
      await finished(target);
    },
  };
}
